using System.Text;
using System.Text.Json;
using System.Xml;
using System.Xml.Linq;

namespace Harness.LoadTests.Clients.Soap;

/// <summary>
/// A document/literal wrapped request from a JSON object, as BasicHttpBinding expects it: the operation's input wrapper
/// element in its namespace, its children in the order of the schema's sequence whatever the JSON's order, each value
/// from the JSON property of the child's local name (an object for a complex child, an array for a repeated one,
/// <c>null</c> for <c>xsi:nil</c>), inside a SOAP 1.1 (or 1.2) envelope. A property the element lacks is refused,
/// naming the elements it has.
/// </summary>
internal sealed class SoapEnvelopeWriter(XsdSchemas schemas, XsdElement input, SoapVersion version)
{
    public static readonly XNamespace Soap11 = "http://schemas.xmlsoap.org/soap/envelope/";
    public static readonly XNamespace Soap12 = "http://www.w3.org/2003/05/soap-envelope";
    private static readonly XNamespace Xsi = "http://www.w3.org/2001/XMLSchema-instance";
    private static readonly XmlWriterSettings Settings = new() { OmitXmlDeclaration = true, Encoding = new UTF8Encoding(false) };
    private const int MaxDepth = 64;

    /// <exception cref="CallSetupException">Not JSON, or a property the element lacks, or a value of the wrong shape; names the element.</exception>
    public byte[] Encode(string json)
    {
        using var document = CallJson.Parse(json);
        var ns = version == SoapVersion.Soap11 ? Soap11 : Soap12;
        var envelope = new XElement(
            ns + "Envelope",
            new XAttribute(XNamespace.Xmlns + "s", ns),
            new XElement(ns + "Body", Element(input, document.RootElement, input.Name.LocalName, 0)));
        using var stream = new MemoryStream();
        using (var writer = XmlWriter.Create(stream, Settings))
        {
            envelope.Save(writer);
        }

        return stream.ToArray();
    }

    private XElement Element(XsdElement declaration, JsonElement json, string path, int depth)
    {
        if (json.ValueKind == JsonValueKind.Null)
        {
            return new XElement(declaration.Name, new XAttribute(Xsi + "nil", "true"));
        }

        if (declaration.ComplexType is null)
        {
            return json.ValueKind switch
            {
                JsonValueKind.String => new XElement(declaration.Name, json.GetString()),
                JsonValueKind.Number => new XElement(declaration.Name, json.GetRawText()),
                JsonValueKind.True => new XElement(declaration.Name, "true"),
                JsonValueKind.False => new XElement(declaration.Name, "false"),
                _ => throw new CallSetupException($"element '{path}' holds a simple value ({declaration.TypeName}): give a string, number or boolean, not {Kind(json)}"),
            };
        }

        if (depth > MaxDepth)
        {
            throw new CallSetupException($"element '{path}' nests deeper than {MaxDepth} elements");
        }

        var children = schemas.Children(declaration);

        // An array for an element whose only child repeats: WCF's ArrayOfX, each item one child.
        if (json.ValueKind == JsonValueKind.Array && children is [{ Repeated: true } item])
        {
            return new XElement(declaration.Name, json.EnumerateArray().Select((value, i) => Element(item, value, $"{path}[{i}]", depth + 1)));
        }

        if (json.ValueKind != JsonValueKind.Object)
        {
            throw new CallSetupException($"element '{path}' has elements ({Names(children)}): give a JSON object, not {Kind(json)}");
        }

        foreach (var property in json.EnumerateObject())
        {
            if (!children.Any(c => c.Name.LocalName == property.Name))
            {
                throw new CallSetupException($"element '{path}' has no element '{property.Name}'; its elements are {Names(children)}");
            }
        }

        var element = new XElement(declaration.Name);
        foreach (var child in children)
        {
            if (!json.TryGetProperty(child.Name.LocalName, out var value))
            {
                continue;
            }

            var childPath = $"{path}.{child.Name.LocalName}";
            if (value.ValueKind == JsonValueKind.Array && child.Repeated)
            {
                element.Add(value.EnumerateArray().Select((v, i) => Element(child, v, $"{childPath}[{i}]", depth + 1)));
            }
            else
            {
                element.Add(Element(child, value, childPath, depth + 1));
            }
        }

        return element;
    }

    private static string Names(IReadOnlyList<XsdElement> children) =>
        children.Count == 0 ? "none" : string.Join(", ", children.Select(c => c.Name.LocalName));

    private static string Kind(JsonElement json) => json.ValueKind switch
    {
        JsonValueKind.Object => "an object",
        JsonValueKind.Array => "an array",
        _ => json.GetRawText(),
    };
}
