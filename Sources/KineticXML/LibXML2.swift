import CXML2
import Foundation
import KineticGeometry

// The thin wrapper over libxml2: every xml* call of the package lives in this file. It
// reads an SVG file into `SVGElement` values and nothing else: no network (NONET), no
// external DTD (no DTDLOAD), entities never substituted (no NOENT), libxml2's default
// depth and size limits kept (no HUGE), XInclude not processed.

/// Why an XML file could not be read: libxml2's own message at its line and column, or a
/// construct refused because an SVG is untrusted.
public struct XMLReadError: Error, Hashable {
    var message: String
    var line: Int?
    var column: Int?

    var description: String {
        switch (line, column) {
        case (let l?, let c?) where c > 0: "line \(l), column \(c): \(message)"
        case (let l?, _): "line \(l): \(message)"
        default: message
        }
    }
}

/// The first error libxml2 raised while parsing, kept by its error callback.
private final class FirstError {
    var error: XMLReadError?
}

public enum LibXML2 {
    /// libxml2's global state is set up once, before any thread parses.
    private static let initialized: Void = xmlInitParser()

    /// The document element of the XML in `bytes`, with every element under it.
    /// - Throws: libxml2's message for a malformed file; a refusal for a DOCTYPE with an
    ///   internal subset (`<!ENTITY …>` declarations) or an entity reference; more than
    ///   `maxElements` elements.
    public static func parse(_ bytes: [UInt8], maxElements: Int) throws(XMLReadError) -> SVGElement {
        _ = initialized
        guard !bytes.isEmpty else { throw XMLReadError(message: "the file is empty") }
        guard bytes.count <= Int(Int32.max) else { throw XMLReadError(message: "the file is over 2 GiB") }
        guard let ctxt = xmlNewParserCtxt() else { throw XMLReadError(message: "libxml2 could not start a parser") }
        defer { xmlFreeParserCtxt(ctxt) }
        // libxml2 goes on after a fatal error and reports what follows from it: the first
        // error is the one to show, so each is kept as it is raised.
        let first = FirstError()
        ctxt.pointee._private = Unmanaged.passUnretained(first).toOpaque()
        ctxt.pointee.sax.pointee.serror = { context, error in
            guard let ctxt = context?.assumingMemoryBound(to: xmlParserCtxt.self), let box = ctxt.pointee._private,
                  let error = error?.pointee, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let first = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
            guard first.error == nil else { return }
            let message = error.message.map { String(cString: $0) } ?? "libxml2 error \(error.code)"
            first.error = XMLReadError(message: message.trimmingCharacters(in: .whitespacesAndNewlines),
                                       line: error.line > 0 ? Int(error.line) : nil, column: Int(error.int2))
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        // The callback reaches `first` unretained: it must live through the parse.
        let parsed = withExtendedLifetime(first) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    xmlCtxtReadMemory(ctxt, chars.baseAddress, Int32(chars.count), nil, nil, options)
                }
            }
        }
        guard let doc = parsed else { throw first.error ?? XMLReadError(message: "not well-formed XML") }
        defer { xmlFreeDoc(doc) }
        if let subset = doc.pointee.intSubset?.pointee, var node = subset.children {
            // Entities are how XML files amplify (billion laughs) and reach outside
            // themselves (external entities): an SVG needs none.
            while node.pointee.type != XML_ENTITY_DECL, let next = node.pointee.next { node = next }
            let what = node.pointee.type == XML_ENTITY_DECL
                ? "declares the entity '\(text(node.pointee.name))'" : "declares markup in its DOCTYPE"
            throw XMLReadError(message: "the file \(what): DOCTYPE declarations and entities are refused in an SVG")
        }
        guard let root = xmlDocGetRootElement(doc) else { throw XMLReadError(message: "the file has no root element") }
        var count = 0
        return try element(root, count: &count, limit: maxElements)
    }

    private static func element(_ node: xmlNodePtr, count: inout Int, limit: Int) throws(XMLReadError) -> SVGElement {
        count += 1
        let line = Int(xmlGetLineNo(node))
        guard count <= limit else {
            throw XMLReadError(message: "the file has more than \(limit) elements", line: line)
        }
        let namespace = node.pointee.ns.map { text($0.pointee.href) }
        var result = SVGElement(name: text(node.pointee.name),
                                isSVG: namespace == nil || namespace == "http://www.w3.org/2000/svg", line: line)
        var attribute = node.pointee.properties
        while let a = attribute {
            let prefix = a.pointee.ns.flatMap { $0.pointee.prefix }.map { text($0) + ":" } ?? ""
            result.attributes[prefix + text(a.pointee.name)] = try value(a.pointee.children, line: line)
            attribute = a.pointee.next
        }
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE: result.children.append(try element(c, count: &count, limit: limit))
            case XML_ENTITY_REF_NODE: throw entityReference(c, line: Int(xmlGetLineNo(c)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                // A style sheet is checked for references outside the file.
                if result.name == "style" { result.text += text(c.pointee.content) }
            default: break
            }
            child = c.pointee.next
        }
        return result
    }

    /// An attribute's text: its text nodes joined (entity references are refused).
    private static func value(_ first: xmlNodePtr?, line: Int) throws(XMLReadError) -> String {
        var result = "", node = first
        while let n = node {
            if n.pointee.type == XML_ENTITY_REF_NODE { throw entityReference(n, line: line) }
            if let content = n.pointee.content { result += text(content) }
            node = n.pointee.next
        }
        return result
    }

    private static func entityReference(_ node: xmlNodePtr, line: Int) -> XMLReadError {
        XMLReadError(message: "the entity reference &\(text(node.pointee.name)); is refused in an SVG", line: line)
    }

    private static func text(_ chars: UnsafePointer<xmlChar>?) -> String {
        chars.map { String(cString: $0) } ?? ""
    }
}
