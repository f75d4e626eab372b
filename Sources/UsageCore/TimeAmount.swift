// TimeAmount.swift — an amount of time as typed (`5`, `0.5`, `90s`, `2m`, `1h`), in seconds: what `watch`'s interval and the stream timeout share.

/// Seconds typed as a plain decimal number, with an optional unit `s`, `m` or `h` (any case).
public enum TimeAmount {
    /// The seconds `text` says, or nil when it is not such an amount (signs, exponents, spaces,
    /// `inf` and `nan` included). Each caller checks the range it accepts.
    public static func seconds(_ text: String) -> Double? {
        var number = Substring(text.lowercased())
        var unit = 1.0
        if let last = number.last, let scale = ["s": 1.0, "m": 60, "h": 3600][String(last)] {
            number = number.dropLast()
            unit = scale
        }
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number), value.isFinite else {
            return nil
        }
        return value * unit
    }
}
