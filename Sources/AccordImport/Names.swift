/// The names the contract format allows, made from whatever a document calls things.
enum Names {
    /// `pet-store_item`, `Pet.Store` → `PetStoreItem`, `PetStore`; a leading digit gets `T`; empty gets `Type`.
    static func typeName(_ text: String) -> String {
        var result = ""
        var upper = true
        for scalar in text.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                result += upper ? String(scalar).uppercased() : String(scalar)
                upper = false
            } else {
                upper = true
            }
        }
        if result.isEmpty { return "Type" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "T" + result }
        return result
    }

    /// An endpoint id's last part: letters, digits, `_` and `-`; anything else becomes `_`.
    static func identifier(_ text: String) -> String {
        cleaned(text, keeping: ["_", "-"])
    }

    /// A domain name: lower case letters, digits and `-` (`Pet Store` → `pet-store`).
    static func domain(_ text: String) -> String {
        var result = ""
        var previousUpper = false
        for scalar in text.unicodeScalars {
            if ("A"..."Z").contains(scalar) {
                if !result.isEmpty, !previousUpper, result.last != "-" { result += "-" }
                result += String(scalar).lowercased()
                previousUpper = true
            } else if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                result.unicodeScalars.append(scalar)
                previousUpper = false
            } else {
                if !result.isEmpty, result.last != "-" { result += "-" }
                previousUpper = false
            }
        }
        while result.last == "-" { result.removeLast() }
        return result.isEmpty ? "api" : result
    }

    /// A path parameter name: letters, digits and `_` (`pet-id` → `pet_id`).
    static func parameter(_ text: String) -> String {
        cleaned(text, keeping: ["_"])
    }

    /// `text` with every scalar but ASCII letters, digits and `keeping` replaced by `_` (`_` when empty).
    private static func cleaned(_ text: String, keeping: Set<Unicode.Scalar>) -> String {
        let result = String(text.unicodeScalars.map { scalar -> Character in
            let allowed = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || keeping.contains(scalar)
            return allowed ? Character(scalar) : "_"
        })
        return result.isEmpty ? "_" : result
    }

    /// `name`, or `name2`, `name3`… whichever `taken` does not hold yet; the result is added to `taken`.
    static func unique(_ name: String, in taken: inout Set<String>, separator: String = "") -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + separator + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
