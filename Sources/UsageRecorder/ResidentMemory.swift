// ResidentMemory.swift — the recorder's resident memory after each step of its start: the pages of code and constant data only the start touched (argument parsing, Foundation's set-up, the store's opening) unmapped, malloc's free memory returned; what the loop uses comes back by minor faults.
import CResident

/// Gives back what the recorder's start no longer needs.
public enum ResidentMemory {
    /// Unmaps the resident, never-written pages of the program's and its libraries' file
    /// mappings (they stay in the page cache, so nothing is read from disk again) and trims
    /// malloc's heap; returns the kB unmapped (nil when /proc cannot be read).
    @discardableResult
    public static func settle() -> Int? {
        resident_trim_heap()
        let dropped = resident_drop_file_pages()
        return dropped < 0 ? nil : dropped
    }
}

