import ArgumentParser
import Kinetic

/// `kinetic schema`: the scene format as JSON Schema, for editors.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of the scene format.",
        discussion: """
        Every key with its type, range, enum values, default and a one-line description, \
        generated from the loader's own key lists. docs/kinetic.schema.json is a copy. With VS \
        Code's YAML extension, a first line
          # yaml-language-server: $schema=PATH/TO/kinetic.schema.json
        gives completion, hovers and checks in the editor.

        Examples:
          kinetic schema > kinetic.schema.json
          kinetic schema | jq '."$defs".layer.properties.opacity'
        """)

    func run() throws {
        print(Scene.jsonSchema, terminator: "")
    }
}
