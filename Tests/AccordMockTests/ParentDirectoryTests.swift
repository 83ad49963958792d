import AccordFiles
import Testing

/// The parent of a path as the commands compute it: what Foundation's
/// `deletingLastPathComponent` gives, without its trap on a one-character path.
@Suite struct ParentDirectoryTests {
    @Test(arguments: [
        ("a/b", "a"), ("a/b/", "a"), ("a//b", "a"), ("a/b//", "a"), ("/a/b", "/a"), ("a/./b", "a/."), ("x/é", "x"),
        ("/c", "/"), ("//a", "/"), ("/", "/"), ("//", "/"),
        ("c", ""), ("c/", ""), ("é", ""), ("ab", ""), ("ab/", ""), ("", ""),
    ])
    func theParentOfAPath(path: String, parent: String) {
        #expect(ParentDirectory.of(path) == parent)
    }
}
