using System.Xml.Linq;

namespace Harness.LoadTests.Clients.Soap;

/// <summary>An element a message may hold: its qualified name, and its children when its type is complex.</summary>
/// <param name="Repeated">maxOccurs above 1 (or unbounded): a JSON array gives one element per item.</param>
/// <param name="ComplexType">The resolved <c>xs:complexType</c>; null for a simple value.</param>
/// <param name="TypeName">The type as the schema names it, for messages (<c>xs:int</c>, <c>tns:ComputeRequest</c>).</param>
internal sealed record XsdElement(XName Name, bool Repeated, XElement? ComplexType, string TypeName);

/// <summary>
/// The XML schemas of a WSDL, read as far as writing a document/literal message needs: global elements and complex
/// types by qualified name; a complex type's child elements in the order of its <c>sequence</c> (nested sequences,
/// choices and <c>all</c> flattened in document order, a <c>complexContent</c> extension after its base's); each child's
/// namespace from <c>form</c> or the schema's <c>elementFormDefault</c>, as BasicHttpBinding's DataContractSerializer
/// (qualified) and most other stacks' schemas state it.
/// </summary>
internal sealed class XsdSchemas
{
    public static readonly XNamespace Xsd = "http://www.w3.org/2001/XMLSchema";

    private readonly Dictionary<XName, XElement> _elements = [];
    private readonly Dictionary<XName, XElement> _complexTypes = [];

    public XsdSchemas(IEnumerable<XElement> schemas)
    {
        foreach (var schema in schemas)
        {
            var tns = (string?)schema.Attribute("targetNamespace") ?? "";
            foreach (var element in schema.Elements(Xsd + "element"))
            {
                _elements.TryAdd(XName.Get((string?)element.Attribute("name") ?? "", tns), element);
            }

            foreach (var type in schema.Elements(Xsd + "complexType"))
            {
                _complexTypes.TryAdd(XName.Get((string?)type.Attribute("name") ?? "", tns), type);
            }
        }
    }

    /// <summary>The global element <paramref name="name"/>, or null when no schema declares it.</summary>
    public XsdElement? Global(XName name) =>
        _elements.TryGetValue(name, out var declaration) ? Describe(declaration, name, repeated: false) : null;

    /// <summary>The child elements of <paramref name="element"/>'s complex type, in schema order; empty for a simple one.</summary>
    public IReadOnlyList<XsdElement> Children(XsdElement element)
    {
        var children = new List<XsdElement>();
        if (element.ComplexType is { } type)
        {
            AddParticles(type, children, depth: 0);
        }

        return children;
    }

    private void AddParticles(XElement container, List<XsdElement> children, int depth)
    {
        // Bounded: a type that extends itself through others must not hang the run's set-up.
        if (depth > 32)
        {
            return;
        }

        foreach (var particle in container.Elements())
        {
            var kind = particle.Name;
            if (kind == Xsd + "element")
            {
                children.Add(Local(particle));
            }
            else if (kind == Xsd + "sequence" || kind == Xsd + "choice" || kind == Xsd + "all")
            {
                AddParticles(particle, children, depth + 1);
            }
            else if (kind == Xsd + "complexContent")
            {
                foreach (var derivation in particle.Elements().Where(e => e.Name == Xsd + "extension" || e.Name == Xsd + "restriction"))
                {
                    // An extension holds its base's elements first; a restriction restates the ones it keeps.
                    if (derivation.Name == Xsd + "extension" && QName(derivation, "base") is { } baseName && _complexTypes.TryGetValue(baseName, out var baseType))
                    {
                        AddParticles(baseType, children, depth + 1);
                    }

                    AddParticles(derivation, children, depth + 1);
                }
            }
        }
    }

    private XsdElement Local(XElement particle)
    {
        var repeated = (string?)particle.Attribute("maxOccurs") is { } max && max != "0" && max != "1";
        if (QName(particle, "ref") is { } reference)
        {
            return _elements.TryGetValue(reference, out var global)
                ? Describe(global, reference, repeated)
                : new XsdElement(reference, repeated, null, reference.LocalName);
        }

        var schema = particle.Ancestors(Xsd + "schema").First();
        var form = (string?)particle.Attribute("form") ?? (string?)schema.Attribute("elementFormDefault") ?? "unqualified";
        var ns = form == "qualified" ? (string?)schema.Attribute("targetNamespace") ?? "" : "";
        return Describe(particle, XName.Get((string?)particle.Attribute("name") ?? "", ns), repeated);
    }

    private XsdElement Describe(XElement declaration, XName name, bool repeated)
    {
        if (declaration.Element(Xsd + "complexType") is { } inline)
        {
            return new XsdElement(name, repeated, IsSimpleContent(inline) ? null : inline, "(its own complex type)");
        }

        var typeText = (string?)declaration.Attribute("type") ?? "xs:anyType";
        var complex = QName(declaration, "type") is { } type && _complexTypes.TryGetValue(type, out var named) && !IsSimpleContent(named) ? named : null;
        return new XsdElement(name, repeated, complex, typeText);
    }

    // Text with attributes: a simple value as far as the message's JSON goes.
    private static bool IsSimpleContent(XElement complexType) => complexType.Element(Xsd + "simpleContent") is not null;

    /// <summary>A QName attribute resolved with the prefixes in scope where it is written.</summary>
    public static XName? QName(XElement element, string attribute)
    {
        if ((string?)element.Attribute(attribute) is not { } text)
        {
            return null;
        }

        var colon = text.IndexOf(':');
        var ns = colon < 0 ? element.GetDefaultNamespace() : element.GetNamespaceOfPrefix(text[..colon]) ?? XNamespace.None;
        return ns + text[(colon + 1)..];
    }
}
