using System.Net;
using System.Text;
using System.Xml;
using System.Xml.Linq;
using System.Xml.Schema;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// A SOAP client that knows nothing but a WSDL with inline schemas (<c>?singleWsdl</c>): it reads an operation's
/// soapAction, its message's element and that element's type from the documents, builds the envelope from them,
/// posts it to the port's address and checks the reply's element and its validity against the schemas.
/// </summary>
internal sealed class WsdlClient
{
    private static readonly XNamespace Wsdl = "http://schemas.xmlsoap.org/wsdl/";
    private static readonly XNamespace WsdlSoap = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static readonly XNamespace Xsd = XmlSchema.Namespace;
    private static readonly XNamespace Soap = "http://schemas.xmlsoap.org/soap/envelope/";

    private readonly XElement _definitions;
    private readonly XElement[] _schemaElements;

    public WsdlClient(XDocument wsdl)
    {
        _definitions = wsdl.Root!;
        _schemaElements = [.. _definitions.Element(Wsdl + "types")!.Elements(Xsd + "schema")];
        Schemas = CompileSchemas(_schemaElements);
    }

    /// <summary>The WSDL's schemas, compiled; compiling fails the test on any schema error.</summary>
    public XmlSchemaSet Schemas { get; }

    public string Address => (string)_definitions.Descendants(WsdlSoap + "address").Single().Attribute("location")!;

    public string SoapAction(string operation) =>
        (string)BindingOperation(operation).Element(WsdlSoap + "operation")!.Attribute("soapAction")!;

    /// <summary>The element of the operation's input or output message (its single <c>parameters</c> part).</summary>
    public XName MessageElement(string operation, bool input)
    {
        XElement portTypeOperation = _definitions.Element(Wsdl + "portType")!.Elements(Wsdl + "operation")
            .Single(element => (string?)element.Attribute("name") == operation);
        XElement reference = portTypeOperation.Element(Wsdl + (input ? "input" : "output"))!;
        XName messageName = Resolve(reference, (string)reference.Attribute("message")!);
        XElement message = _definitions.Elements(Wsdl + "message").Single(element => (string?)element.Attribute("name") == messageName.LocalName);
        XElement part = message.Elements(Wsdl + "part").Single();
        return Resolve(part, (string)part.Attribute("element")!);
    }

    /// <summary>
    /// Calls <paramref name="operation"/> with the given member values (simple-typed wrappers take the value under the
    /// key ""), returning the reply's body element after checking its name and validating it.
    /// </summary>
    public async Task<XElement> CallAsync(HttpClient http, string operation, IReadOnlyDictionary<string, string> values)
    {
        XName wrapper = MessageElement(operation, input: true);
        XElement request = BuildElement(wrapper, values);
        var envelope = new XElement(Soap + "Envelope", new XAttribute(XNamespace.Xmlns + "s", Soap.NamespaceName), new XElement(Soap + "Body", request));
        using var message = new HttpRequestMessage(HttpMethod.Post, Address)
        {
            Content = new ByteArrayContent(Encoding.UTF8.GetBytes(envelope.ToString(SaveOptions.DisableFormatting))),
        };
        message.Content.Headers.TryAddWithoutValidation("Content-Type", "text/xml; charset=utf-8");
        message.Headers.TryAddWithoutValidation("SOAPAction", $"\"{SoapAction(operation)}\"");

        using HttpResponseMessage response = await http.SendAsync(message);
        string body = await response.Content.ReadAsStringAsync();

        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{operation}: {(int)response.StatusCode} {body}");
        XElement reply = XDocument.Parse(body).Root!.Element(Soap + "Body")!.Elements().Single();
        Assert.Equal(MessageElement(operation, input: false), reply.Name);
        Validate(request);
        Validate(reply);
        return reply;
    }

    /// <summary>Validates <paramref name="element"/> against the WSDL's schemas, failing on any error.</summary>
    public void Validate(XElement element)
    {
        var errors = new List<string>();
        new XDocument(new XElement(element)).Validate(Schemas, (_, e) => errors.Add($"{e.Severity}: {e.Message}"));
        Assert.True(errors.Count == 0, $"{element.Name}: {string.Join("; ", errors)}");
    }

    private XElement BindingOperation(string operation) =>
        _definitions.Element(Wsdl + "binding")!.Elements(Wsdl + "operation").Single(element => (string?)element.Attribute("name") == operation);

    /// <summary>
    /// Builds the wrapper from its schema declaration: the sequence of member elements of its anonymous type (CoreWCF's
    /// message-contract shape) or of its named type, each local one in its schema's namespace (qualified) and each
    /// reference in the namespace it names; or simple content.
    /// </summary>
    private XElement BuildElement(XName name, IReadOnlyDictionary<string, string> values)
    {
        XElement declaration = Schema(name.NamespaceName).Elements(Xsd + "element").Single(element => (string?)element.Attribute("name") == name.LocalName);
        XElement? complexType = declaration.Element(Xsd + "complexType");
        if (complexType is null)
        {
            XName type = Resolve(declaration, (string)declaration.Attribute("type")!);
            if (type.Namespace == Xsd)
            {
                return new XElement(name, values[""]);
            }

            complexType = Schema(type.NamespaceName).Elements(Xsd + "complexType").Single(element => (string?)element.Attribute("name") == type.LocalName);
        }

        XElement schema = complexType.Ancestors(Xsd + "schema").First();
        XNamespace localNamespace = (string?)schema.Attribute("elementFormDefault") == "qualified" ? (string)schema.Attribute("targetNamespace")! : XNamespace.None;
        var wrapper = new XElement(name);
        foreach (XElement member in complexType.Element(Xsd + "sequence")!.Elements(Xsd + "element"))
        {
            XName memberName = member.Attribute("ref") is { } reference ? Resolve(member, reference.Value) : localNamespace + (string)member.Attribute("name")!;
            if (values.TryGetValue(memberName.LocalName, out string? value))
            {
                wrapper.Add(new XElement(memberName, value));
            }
        }

        return wrapper;
    }

    private XElement Schema(string targetNamespace) =>
        _schemaElements.Single(schema => (string?)schema.Attribute("targetNamespace") == targetNamespace);

    private static XName Resolve(XElement scope, string qualifiedName)
    {
        int colon = qualifiedName.IndexOf(':', StringComparison.Ordinal);
        XNamespace ns = colon < 0 ? scope.GetDefaultNamespace() : scope.GetNamespaceOfPrefix(qualifiedName[..colon])!;
        return ns + qualifiedName[(colon + 1)..];
    }

    private static XmlSchemaSet CompileSchemas(IEnumerable<XElement> schemas)
    {
        var errors = new List<string>();
        var set = new XmlSchemaSet();
        set.ValidationEventHandler += (_, e) => errors.Add($"{e.Severity}: {e.Message}");
        foreach (XElement schema in schemas)
        {
            using XmlReader reader = schema.CreateReader();
            set.Add(XmlSchema.Read(reader, (_, e) => errors.Add($"{e.Severity}: {e.Message}"))!);
        }

        set.Compile();
        Assert.True(errors.Count == 0, string.Join("; ", errors));
        return set;
    }
}
