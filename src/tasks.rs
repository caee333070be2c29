//! Tasks: the recursive task stack (docs/workflow.md#task-stack), as far as edit sessions need it —
//! `memo_begin_task` pushes a goal, a commit completes and pops the innermost task, a revert marks
//! it Reverted and pops it. [`TaskStack::tree`] and [`TaskStack::recent_tree`] are the views of
//! the thought tree (the finished tasks, nested); history compression is src/history.rs.
//!
//! Plain data: ids are `1`, `2`, … in creation order and never reused; finished tasks stay in
//! `all` so the tree of what was done can be shown.

use std::fmt;

/// Default for [`TaskStack::max_depth`] (`maxTaskDepth` in JS).
pub const DEFAULT_MAX_DEPTH: usize = 3;

/// How many root tasks the thought tree of a response shows (the most recent ones, so the
/// view stays compact).
pub const TREE_ROOTS: usize = 10;

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TaskStatus {
    Active,
    Completed,
    Reverted,
}

impl TaskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Active => "Active",
            TaskStatus::Completed => "Completed",
            TaskStatus::Reverted => "Reverted",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Task {
    pub id: u32,
    pub goal: String,
    pub parent: Option<u32>,
    pub status: TaskStatus,
    /// The commit summary or revert reason that ended it.
    pub summary: Option<String>,
    /// 1 for a root task.
    pub depth: usize,
    /// When it was begun (ms, passed in by the shell).
    pub started_ms: f64,
}

/// Why `begin` refused. Messages carry the value and the limit.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskError {
    /// The new task would be deeper than the limit.
    TooDeep {
        goal: String,
        depth: usize,
        limit: usize,
    },
    /// `parent_task_id` is not the innermost active task (the only one that can take a child).
    NotInnermost {
        given: String,
        innermost: Option<u32>,
    },
    EmptyGoal,
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskError::TooDeep { goal, depth, limit } => {
                write!(f, "task \"{goal}\" would be at depth {depth}, deeper than the limit of {limit}")
            }
            TaskError::NotInnermost { given, innermost: None } => {
                write!(f, "parent_task_id \"{given}\" names no active task; there are none, so leave it out")
            }
            TaskError::NotInnermost { given, innermost: Some(id) } => {
                write!(f, "parent_task_id \"{given}\" must be the innermost active task, \"{id}\" (a new task nests under the current one)")
            }
            TaskError::EmptyGoal => write!(f, "goal must not be empty"),
        }
    }
}

impl std::error::Error for TaskError {}

/// A task of the thought tree with its children, in creation order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TaskNode<'a> {
    pub task: &'a Task,
    pub children: Vec<TaskNode<'a>>,
}

#[derive(Clone, Debug)]
pub struct TaskStack {
    /// Every task ever begun, in creation order.
    all: Vec<Task>,
    /// Ids of the active tasks, outermost first.
    stack: Vec<u32>,
    pub max_depth: usize,
}

impl Default for TaskStack {
    fn default() -> TaskStack {
        TaskStack::new(DEFAULT_MAX_DEPTH)
    }
}

impl TaskStack {
    pub fn new(max_depth: usize) -> TaskStack {
        TaskStack { all: Vec::new(), stack: Vec::new(), max_depth }
    }

    /// Pushes a task under the innermost active one. `parent` may name that task (`"2"` or
    /// `"#2"`); anything else is refused, because the stack is one path ). Errors:
    /// `EmptyGoal`, `NotInnermost`, `TooDeep` past `max_depth`. Cost: O(1).
    pub fn begin(&mut self, goal: &str, parent: Option<&str>, now_ms: f64) -> Result<&Task, TaskError> {
        let goal = goal.trim();
        if goal.is_empty() {
            return Err(TaskError::EmptyGoal);
        }
        let parent_id = match parent {
            None => self.stack.last().copied(),
            Some(given) => {
                let id = given.trim().trim_start_matches('#').parse::<u32>().ok();
                // Only the innermost task can take a child: the stack is one path.
                match id.filter(|id| self.stack.last() == Some(id)) {
                    Some(id) => Some(id),
                    None => return Err(TaskError::NotInnermost { given: given.to_string(), innermost: self.stack.last().copied() }),
                }
            }
        };
        let depth = self.stack.len() + 1;
        if depth > self.max_depth {
            return Err(TaskError::TooDeep { goal: goal.to_string(), depth, limit: self.max_depth });
        }
        let id = self.all.len() as u32 + 1;
        self.all.push(Task {
            id,
            goal: goal.to_string(),
            parent: parent_id,
            status: TaskStatus::Active,
            summary: None,
            depth,
            started_ms: now_ms,
        });
        self.stack.push(id);
        // `id` is the new task's position + 1: pushed just above.
        #[allow(clippy::indexing_slicing)]
        let task = &self.all[id as usize - 1];
        Ok(task)
    }

    /// The task with `id` (1-based position in `all`). Cost: O(1).
    pub fn task(&self, id: u32) -> Option<&Task> {
        self.all.get((id as usize).checked_sub(1)?)
    }

    /// Ends the innermost active task with `status` and pops it; `None` when no task is active.
    /// Cost: O(1).
    pub fn pop(&mut self, status: TaskStatus, summary: &str) -> Option<&Task> {
        let id = self.stack.pop()?;
        let t = self.all.get_mut((id as usize).checked_sub(1)?)?;
        t.status = status;
        t.summary = Some(summary.to_string());
        Some(t)
    }

    /// The active tasks, outermost first.
    pub fn active(&self) -> impl Iterator<Item = &Task> {
        self.stack.iter().filter_map(|id| self.task(*id))
    }

    pub fn innermost(&self) -> Option<&Task> {
        self.stack.last().and_then(|id| self.task(*id))
    }

    /// Every task, finished ones included (the tests read it).
    #[cfg(test)]
    pub(crate) fn all(&self) -> &[Task] {
        &self.all
    }

    #[cfg(test)]
    pub(crate) fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The thought tree: every finished root task (Completed or Reverted), oldest
    /// first, each with its subtasks nested in creation order. Tasks under a still-active root are
    /// left out until that root finishes. Cost: O(n) in
    /// the tasks ever begun.
    pub fn tree(&self) -> Vec<TaskNode<'_>> {
        // Children by parent index; ids are 1-based positions in `all`, parents come first.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); self.all.len()];
        for (i, t) in self.all.iter().enumerate() {
            if let Some(siblings) = t.parent.and_then(|p| children.get_mut((p as usize).checked_sub(1)?)) {
                siblings.push(i);
            }
        }
        fn node<'a>(all: &'a [Task], children: &[Vec<usize>], i: usize, task: &'a Task) -> TaskNode<'a> {
            let kids = children.get(i).map_or(&[][..], Vec::as_slice);
            TaskNode { task, children: kids.iter().filter_map(|&c| Some(node(all, children, c, all.get(c)?))).collect() }
        }
        self.all
            .iter()
            .enumerate()
            .filter(|(_, t)| t.parent.is_none() && t.status != TaskStatus::Active)
            .map(|(i, t)| node(&self.all, &children, i, t))
            .collect()
    }

    /// [`TaskStack::tree`] cut to the `roots` most recent roots, and how many earlier roots were
    /// left out.
    pub fn recent_tree(&self, roots: usize) -> (Vec<TaskNode<'_>>, usize) {
        let mut tree = self.tree();
        let earlier = tree.len().saturating_sub(roots);
        tree.drain(..earlier);
        (tree, earlier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn begin_commit_pops_the_innermost() {
        let mut t = TaskStack::default();
        assert_eq!(t.begin("add module Y", None, 0.0).unwrap().id, 1);
        let child = t.begin("check deps", Some("1"), 1.0).unwrap();
        assert_eq!((child.id, child.parent, child.depth), (2, Some(1), 2));
        let done = t.pop(TaskStatus::Completed, "deps ok").unwrap();
        assert_eq!((done.id, done.status), (2, TaskStatus::Completed));
        assert_eq!(t.innermost().map(|x| x.id), Some(1));
        t.pop(TaskStatus::Reverted, "abandoned");
        assert!(t.pop(TaskStatus::Completed, "x").is_none());
        assert_eq!(t.all()[0].status, TaskStatus::Reverted);
    }

    #[test]
    fn depth_is_limited() {
        let mut t = TaskStack::new(2);
        t.begin("a", None, 0.0).unwrap();
        t.begin("b", None, 0.0).unwrap();
        let e = t.begin("c", None, 0.0).unwrap_err();
        assert_eq!(e, TaskError::TooDeep { goal: "c".into(), depth: 3, limit: 2 });
        assert_eq!(e.to_string(), "task \"c\" would be at depth 3, deeper than the limit of 2");
        assert_eq!(t.depth(), 2);
    }

    #[test]
    fn parent_must_be_the_innermost_active_task() {
        let mut t = TaskStack::default();
        t.begin("a", None, 0.0).unwrap();
        t.begin("b", None, 0.0).unwrap();
        let e = t.begin("c", Some("1"), 0.0).unwrap_err();
        assert_eq!(e.to_string(), "parent_task_id \"1\" must be the innermost active task, \"2\" (a new task nests under the current one)");
        assert!(t.begin("c", Some("#2"), 0.0).is_ok());
        assert_eq!(t.begin("  ", None, 0.0).unwrap_err(), TaskError::EmptyGoal);
    }

    /// `(id, status, children)` of a tree, for comparing shapes.
    fn shape(nodes: &[TaskNode<'_>]) -> Vec<(u32, TaskStatus, Vec<u32>)> {
        nodes.iter().map(|n| (n.task.id, n.task.status, n.children.iter().map(|c| c.task.id).collect())).collect()
    }

    #[test]
    fn tree_of_example_flow_3() {
        // Flow 1 first (#1), then #2 with the nested #3 (the nested-task flow).
        let mut t = TaskStack::default();
        t.begin("启用实验性功能 X", None, 0.0).unwrap();
        t.pop(TaskStatus::Completed, "启用实验性功能 X");
        assert_eq!(shape(&t.tree()), vec![(1, TaskStatus::Completed, vec![])]);
        t.begin("添加新功能模块 Y", None, 1.0).unwrap();
        t.begin("检查依赖版本", Some("2"), 2.0).unwrap();
        t.pop(TaskStatus::Completed, "依赖版本已确认满足要求");
        // #2 is still active: its finished child waits for it.
        assert_eq!(shape(&t.tree()), vec![(1, TaskStatus::Completed, vec![])]);
        t.pop(TaskStatus::Completed, "功能模块 Y 添加完成");
        let tree = t.tree();
        assert_eq!(shape(&tree), vec![(1, TaskStatus::Completed, vec![]), (2, TaskStatus::Completed, vec![3])]);
        assert_eq!(tree[1].children[0].task.goal, "检查依赖版本");
        assert_eq!(tree[1].children[0].task.summary.as_deref(), Some("依赖版本已确认满足要求"));
    }

    #[test]
    fn tree_keeps_a_revert_inside_a_nested_task() {
        let mut t = TaskStack::default();
        t.begin("a", None, 0.0).unwrap();
        t.begin("b", None, 0.0).unwrap();
        t.begin("c", None, 0.0).unwrap();
        t.pop(TaskStatus::Reverted, "wrong file");
        t.pop(TaskStatus::Completed, "b done");
        t.begin("d", None, 0.0).unwrap();
        t.pop(TaskStatus::Completed, "d done");
        t.pop(TaskStatus::Completed, "a done");
        let tree = t.tree();
        assert_eq!(shape(&tree), vec![(1, TaskStatus::Completed, vec![2, 4])]);
        assert_eq!(shape(&tree[0].children), vec![(2, TaskStatus::Completed, vec![3]), (4, TaskStatus::Completed, vec![])]);
        let c = tree[0].children[0].children[0].task;
        assert_eq!((c.status, c.summary.as_deref(), c.depth), (TaskStatus::Reverted, Some("wrong file"), 3));
        // A reverted root is a root of the tree too.
        t.begin("e", None, 0.0).unwrap();
        t.pop(TaskStatus::Reverted, "not needed");
        assert_eq!(shape(&t.tree())[1], (5, TaskStatus::Reverted, vec![]));
    }

    #[test]
    fn depth_overflow_leaves_stack_and_tree_unchanged() {
        let mut t = TaskStack::new(2);
        t.begin("a", None, 0.0).unwrap();
        t.pop(TaskStatus::Completed, "a done");
        t.begin("b", None, 0.0).unwrap();
        t.begin("c", None, 0.0).unwrap();
        let before = (t.all().to_vec(), shape(&t.tree()));
        assert!(matches!(t.begin("d", None, 0.0), Err(TaskError::TooDeep { depth: 3, limit: 2, .. })));
        assert_eq!((t.all().to_vec(), shape(&t.tree())), before);
        assert_eq!(t.active().map(|x| x.id).collect::<Vec<_>>(), vec![2, 3]);
        // The next task still gets the next id.
        t.pop(TaskStatus::Completed, "c done");
        assert_eq!(t.begin("e", None, 0.0).unwrap().id, 4);
    }

    #[test]
    fn recent_tree_keeps_the_last_roots() {
        let mut t = TaskStack::default();
        for i in 0..13 {
            t.begin(&format!("t{i}"), None, 0.0).unwrap();
            t.pop(TaskStatus::Completed, "ok");
        }
        let (tree, earlier) = t.recent_tree(TREE_ROOTS);
        assert_eq!((tree.len(), earlier, tree[0].task.id, tree[9].task.id), (10, 3, 4, 13));
        let (tree, earlier) = t.recent_tree(20);
        assert_eq!((tree.len(), earlier), (13, 0));
        assert_eq!(TaskStack::default().recent_tree(TREE_ROOTS), (vec![], 0));
    }
}
