import AccordFiles
import Foundation

/// Files a command writes into a project directory (`accord init`, `accord import`), each whole or not at all.
struct ProjectFiles {
    /// Paths relative to the directory (`contracts/service.yaml`) and their text.
    var files: [(path: String, text: String)]
    /// Folders made even when no file goes into them (`mocks/`, which commands look for).
    var folders: [String] = []

    /// The files already in `directory` that writing would replace.
    func taken(in directory: String) -> [String] {
        files.map { directory + "/" + $0.path }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Writes every file under `directory`, making the folders they need; the message of the first that fails.
    func write(into directory: String) -> String? {
        for folder in folders {
            do {
                try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
            } catch {
                return "cannot make \(directory)/\(folder): \(error)"
            }
        }
        for file in files {
            let path = directory + "/" + file.path
            do {
                try FileManager.default.createDirectory(atPath: ParentDirectory.of(path), withIntermediateDirectories: true)
                try AtomicFile.write(Array(file.text.utf8), to: path)
            } catch {
                return "cannot write \(path): \(error)"
            }
        }
        return nil
    }
}
