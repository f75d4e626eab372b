// Version.swift — the program's version, shown by --version and the banner.

/// The version of Usage Shell.
public enum UsageShellVersion {
    public static let string = "0.1.0"
}
