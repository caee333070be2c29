//! `f64` as decimal text, byte for byte what `format!("{x:.N}")` and `format!("{x}")` write,
//! without core's float formatting: `Display` of a float links `flt2dec` (Grisu, Dragon, their
//! tables and bignums), about 20 KB of wasm for the few numbers the crate prints
//! (docs/performance.md#wasm-size). Shortest digits come from `zmij`, which serde_json links
//! already for JSON numbers.

/// `x` with `decimals` digits after the point, as `format!("{x:.decimals$}")` writes it: the exact
/// binary value rounded half to even; `-` before any negative `x` (also `-0.0` and what rounds to
/// zero); `NaN`, `inf`, `-inf` without decimals. `decimals` above 22 count as 22 (the scaled value
/// then still fits 128 bits). Cost: O(digits); values of 2^75 or more go through a small bignum.
pub fn fixed(x: f64, decimals: u32) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if x.is_infinite() {
        out.push_str("inf");
        return out;
    }
    let decimals = decimals.min(22);
    let (mantissa, exp) = binary_parts(x);
    if let Ok(shift) = u32::try_from(exp) {
        // A whole number: its digits, then zeros.
        let mut whole = Digits::from_u64(mantissa);
        whole.shift_left(shift);
        out.push_str(&whole.to_decimal());
        if decimals > 0 {
            out.push('.');
            out.push_str(&"0".repeat(decimals as usize));
        }
        return out;
    }
    // x · 10^decimals = mantissa · 10^decimals / 2^k: below 2^53 · 10^22 < 2^127 before the shift.
    let k = exp.unsigned_abs();
    let scaled = u128::from(mantissa) * 10u128.pow(decimals);
    let rounded = if k >= 128 {
        0 // below 2^127 / 2^128: under one half, rounds to 0
    } else {
        let below = scaled >> k;
        let rest = scaled & ((1u128 << k) - 1);
        let half = 1u128 << (k - 1);
        below + u128::from(rest > half || (rest == half && below & 1 == 1))
    };
    let digits = Digits::from_u128(rounded).to_decimal();
    // At least one digit before the point.
    let width = decimals as usize + 1;
    let padded = "0".repeat(width.saturating_sub(digits.len())) + &digits;
    let point_at = padded.len() - decimals as usize;
    for (i, c) in padded.chars().enumerate() {
        if i == point_at {
            out.push('.');
        }
        out.push(c);
    }
    out
}

/// `x` as `format!("{x}")` writes it: the shortest digits that read back as `x`, never an
/// exponent (`1e21` is `1000000000000000000000`, `1e-7` is `0.0000001`), no `.0` on whole
/// numbers, `-0` for `-0.0`; `NaN`, `inf`, `-inf`. Cost: O(digits).
pub fn shortest(x: f64) -> String {
    let mut buffer = zmij::Buffer::new();
    let printed = buffer.format(x);
    if !x.is_finite() {
        return printed.to_string();
    }
    // zmij writes `[-]d[.ddd][e[-]n]`: read it as the value digits · 10^scale.
    let unsigned = printed.strip_prefix('-').unwrap_or(printed);
    let (mantissa, exp) = unsigned.split_once(['e', 'E']).unwrap_or((unsigned, "0"));
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = int.chars().chain(frac.chars()).collect();
    let mut digits: u64 = all.parse().unwrap_or(0);
    let mut scale = exp.parse::<i32>().unwrap_or(0) - i32::try_from(frac.len()).unwrap_or(0);
    // Between two shortest candidates at the same distance core takes the larger (its Dragon
    // rounds a tie up), zmij may take the other one.
    if digits > 0 && is_halfway_above(x.abs(), digits, scale) {
        digits += 1;
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if digits == 0 {
        out.push('0');
        return out;
    }
    while digits % 10 == 0 {
        digits /= 10;
        scale += 1;
    }
    let digits = digits.to_string();
    // The point sits `point` digits from the left (value 0.digits · 10^point).
    let mut point = i32::try_from(digits.len()).unwrap_or(0) + scale;
    if point <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat(point.unsigned_abs() as usize));
        out.push_str(&digits);
        return out;
    }
    for c in digits.chars() {
        if point == 0 {
            out.push('.');
        }
        out.push(c);
        point -= 1;
    }
    out.push_str(&"0".repeat(point.max(0).unsigned_abs() as usize));
    out
}

/// Whether `x` (finite, ≥ 0) is exactly (digits + 1/2) · 10^scale: x · 2 = (2 · digits + 1) · 10^scale,
/// compared as whole numbers, each side multiplied by what would make the other a fraction.
fn is_halfway_above(x: f64, digits: u64, scale: i32) -> bool {
    let (mantissa, exp) = binary_parts(x);
    let (mut left, mut right) = (Digits::from_u64(mantissa), Digits::from_u64(2 * digits + 1));
    let twos = exp + 1;
    if twos >= 0 {
        left.shift_left(twos.unsigned_abs());
    } else {
        right.shift_left(twos.unsigned_abs());
    }
    let tens = if scale >= 0 { &mut right } else { &mut left };
    for _ in 0..scale.unsigned_abs() {
        tens.mul_add(10, 0);
    }
    left.to_decimal() == right.to_decimal()
}

/// `x` (finite) as `mantissa · 2^exp` exactly.
fn binary_parts(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// A whole number in base 10^9 limbs, least significant first: enough bignum for a double's
/// integer digits (up to 309 of them) with 64-bit arithmetic only.
struct Digits(Vec<u64>);

const LIMB: u64 = 1_000_000_000;

impl Digits {
    fn from_u64(n: u64) -> Digits {
        let mut d = Digits(Vec::new());
        d.mul_add(1, n); // no limbs yet: the carry loop splits n
        d
    }

    /// From 32-bit pieces, most significant first: no 128-bit division.
    fn from_u128(n: u128) -> Digits {
        let mut d = Digits(Vec::new());
        for piece in (0..4).rev() {
            d.mul_add(1 << 32, ((n >> (32 * piece)) & 0xffff_ffff) as u64);
        }
        d
    }

    /// self = self · factor + add, for factor ≤ 2^32 (a limb times 2^32 fits 64 bits) and add
    /// ≤ 2^32 (any u64 while there are no limbs).
    fn mul_add(&mut self, factor: u64, add: u64) {
        let mut carry = add;
        for limb in &mut self.0 {
            let v = *limb * factor + carry;
            *limb = v % LIMB;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.0.push(carry % LIMB);
            carry /= LIMB;
        }
    }

    /// self = self · 2^shift.
    fn shift_left(&mut self, mut shift: u32) {
        while shift > 0 {
            let step = shift.min(32);
            self.mul_add(1 << step, 0);
            shift -= step;
        }
    }

    fn to_decimal(&self) -> String {
        let mut limbs = self.0.iter().rev().skip_while(|&&l| l == 0);
        let Some(first) = limbs.next() else { return "0".into() };
        let mut out = first.to_string();
        for limb in limbs {
            let s = limb.to_string();
            out.push_str(&"0".repeat(9 - s.len()));
            out.push_str(&s);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values that sit on the edges: ties, zeros, subnormals, the ends of the range, powers of
    /// ten that are not exact, the memory store's time limit. Written as the exact doubles they
    /// are, whose shortest form is shorter: that is what is tested.
    #[allow(clippy::excessive_precision)]
    const EDGES: &[f64] = &[
        0.0,
        -0.0,
        0.125,
        0.375,
        -0.125,
        2.5,
        0.005,
        1.005,
        0.995,
        9.995,
        123456789.125,
        579028126033561.25, // two shortest candidates at the same distance: core takes .3
        -579028126033561.25,
        -0.001,
        1e21,
        1e22,
        1e23,
        1e-7,
        1.5e-7,
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        f64::EPSILON,
        9_007_199_254_740.0,
        9_007_199_254_740.5,
        9_007_199_254_740_992.0,
        18_446_744_073_709_551_616.0,
        3.777_893_186_295_716e22, // 2^75
        0.1,
        0.2,
        0.3,
        1.0 / 3.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];

    #[test]
    fn fixed_writes_what_format_writes_at_the_edges() {
        for &x in EDGES {
            for decimals in 0..=22 {
                assert_eq!(fixed(x, decimals), format!("{x:.0$}", decimals as usize), "{x:e} with {decimals} decimals");
            }
        }
    }

    #[test]
    fn shortest_writes_what_format_writes_at_the_edges() {
        for &x in EDGES {
            assert_eq!(shortest(x), format!("{x}"), "{x:e}");
        }
    }

    #[test]
    fn decimals_past_22_count_as_22() {
        assert_eq!(fixed(0.1, 30), format!("{:.22}", 0.1));
    }

    #[test]
    fn memory_scores_and_times_read_as_before() {
        assert_eq!(fixed(12.3456, 2), "12.35");
        assert_eq!(fixed(0.0, 2), "0.00");
        assert_eq!(shortest(9_007_199_254_740.0), "9007199254740");
        assert_eq!(shortest(-1e300).len(), 302);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn fixed_matches_format_on_any_double(bits in any::<u64>(), decimals in 0u32..=22) {
            let x = f64::from_bits(bits);
            prop_assert_eq!(fixed(x, decimals), format!("{x:.0$}", decimals as usize));
        }

        #[test]
        fn fixed_matches_format_on_scores(x in -1e9f64..1e9, decimals in 0u32..=4) {
            prop_assert_eq!(fixed(x, decimals), format!("{x:.0$}", decimals as usize));
        }

        #[test]
        fn fixed_matches_format_on_hundredths(cents in -10_000_000i64..10_000_000) {
            // Decimal ties written as doubles: 0.125 is exact, 1.005 is not.
            let x = cents as f64 / 1000.0;
            prop_assert_eq!(fixed(x, 2), format!("{x:.2}"));
        }

        #[test]
        fn shortest_matches_format_on_any_double(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assert_eq!(shortest(x), format!("{x}"));
        }

        #[test]
        fn shortest_matches_format_on_times(x in -1e16f64..1e16) {
            prop_assert_eq!(shortest(x), format!("{x}"));
        }
    }
}
