using System.Globalization;
using System.Xml;
using System.Xml.Linq;
using System.Xml.Schema;

namespace Harness.Rpc.Soap;

/// <summary>
/// An endpoint's metadata documents, shaped as CoreWCF's ServiceMetadataBehavior serves them for a BasicHttpBinding
/// endpoint: WSDL 1.1 (document/literal wrapped, one <c>parameters</c> part per message, <c>soap:operation</c> with the
/// action, <c>wsaw:Action</c> on the port type), its schemas, and DISCO. The schemas are exported once; every document
/// is built per request, since the addresses in it come from the request.
/// </summary>
internal sealed class SoapMetadata
{
    private static readonly XNamespace Wsdl = "http://schemas.xmlsoap.org/wsdl/";
    private static readonly XNamespace WsdlSoap = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static readonly XNamespace Xsd = XmlSchema.Namespace;
    private static readonly XNamespace Wsaw = "http://www.w3.org/2006/05/addressing/wsdl";
    private static readonly XNamespace Disco = "http://schemas.xmlsoap.org/disco/";
    private static readonly XNamespace DiscoScl = "http://schemas.xmlsoap.org/disco/scl/";
    private static readonly XNamespace DiscoSoap = "http://schemas.xmlsoap.org/disco/soap/";
    private const string SoapHttpTransport = "http://schemas.xmlsoap.org/soap/http";

    private readonly string _contractName;
    private readonly XNamespace _tns;
    private readonly IReadOnlyList<SoapOperation> _operations;
    private readonly IReadOnlyList<XElement> _schemas;
    private readonly Dictionary<(SoapOperation Operation, bool Input), WsdlMessage> _messages = [];

    /// <exception cref="InvalidOperationException">The contract has no namespace, or its schemas conflict.</exception>
    public SoapMetadata(string contractName, string contractNamespace, IReadOnlyList<SoapOperation> operations)
    {
        if (contractNamespace.Length == 0)
        {
            throw new InvalidOperationException($"Contract '{contractName}' has no namespace; WSDL needs one to publish metadata (HttpGetEnabled).");
        }

        _contractName = contractName;
        _tns = contractNamespace;
        _operations = operations;
        SoapSchemas schemas = SoapSchemaExporter.Export(contractName, contractNamespace, operations);
        _schemas = schemas.Schemas;
        NameMessages(schemas.TypedWrappers);
        ServiceName = ServiceNameOf(contractName);
    }

    /// <summary>The <c>wsdl:service</c> name, also the help page's title.</summary>
    public string ServiceName { get; }

    /// <summary>
    /// WCF names the service after its implementation class, which the stand-in does not have; a contract 'IFoo' is
    /// conventionally implemented by 'Foo', so that is the name, and any other contract name is used as it is.
    /// </summary>
    public static string ServiceNameOf(string contractName) =>
        contractName.Length > 1 && contractName[0] == 'I' && char.IsUpper(contractName[1]) ? contractName[1..] : contractName;

    /// <summary>The binding's and the port's name, as WCF names them.</summary>
    public string BindingName => "BasicHttpBinding_" + _contractName;

    public int SchemaCount => _schemas.Count;

    /// <summary>
    /// The WSDL. <paramref name="single"/> gives <c>?singleWsdl</c>'s form, with every schema inline; otherwise the
    /// types import the schemas from <c>{address}?xsd=xsdN</c>, as <c>?wsdl</c> does.
    /// </summary>
    public XDocument CreateWsdl(string address, bool single)
    {
        object types = single
            ? _schemas.Select(schema => new XElement(schema))
            : new XElement(
                Xsd + "schema",
                new XAttribute("targetNamespace", _tns.NamespaceName.TrimEnd('/') + "/Imports"),
                _schemas.Select((schema, index) => new XElement(
                    Xsd + "import",
                    new XAttribute("schemaLocation", SchemaLocation(address, index)),
                    new XAttribute("namespace", TargetNamespace(schema) ?? ""))));

        var definitions = new XElement(
            Wsdl + "definitions",
            new XAttribute("name", ServiceName),
            new XAttribute("targetNamespace", _tns.NamespaceName),
            new XAttribute(XNamespace.Xmlns + "wsdl", Wsdl.NamespaceName),
            new XAttribute(XNamespace.Xmlns + "soap", WsdlSoap.NamespaceName),
            new XAttribute(XNamespace.Xmlns + "xsd", Xsd.NamespaceName),
            new XAttribute(XNamespace.Xmlns + "wsaw", Wsaw.NamespaceName),
            new XAttribute(XNamespace.Xmlns + "tns", _tns.NamespaceName),
            new XElement(Wsdl + "types", types),
            _operations.SelectMany(Messages),
            new XElement(Wsdl + "portType", new XAttribute("name", _contractName), _operations.Select(PortTypeOperation)),
            new XElement(
                Wsdl + "binding",
                new XAttribute("name", BindingName),
                new XAttribute("type", "tns:" + _contractName),
                new XElement(WsdlSoap + "binding", new XAttribute("transport", SoapHttpTransport)),
                _operations.Select(BindingOperation)),
            new XElement(
                Wsdl + "service",
                new XAttribute("name", ServiceName),
                new XElement(
                    Wsdl + "port",
                    new XAttribute("name", BindingName),
                    new XAttribute("binding", "tns:" + BindingName),
                    new XElement(WsdlSoap + "address", new XAttribute("location", address)))));
        return new XDocument(new XDeclaration("1.0", "utf-8", null), definitions);
    }

    /// <summary>Schema <paramref name="index"/> (<c>?xsd=xsdN</c>), its imports located at their own <c>?xsd=xsdN</c>; null when there is none.</summary>
    public XDocument? CreateSchema(int index, string address)
    {
        if (index < 0 || index >= _schemas.Count)
        {
            return null;
        }

        var schema = new XElement(_schemas[index]);
        foreach (XElement import in schema.Elements(Xsd + "import"))
        {
            int imported = IndexOf((string?)import.Attribute("namespace"));
            if (imported >= 0)
            {
                import.SetAttributeValue("schemaLocation", SchemaLocation(address, imported));
            }
        }

        return new XDocument(new XDeclaration("1.0", "utf-8", null), schema);
    }

    /// <summary>The DISCO document (<c>?disco</c>): where the WSDL is, and the SOAP binding at the address.</summary>
    public XDocument CreateDisco(string address) => new(
        new XDeclaration("1.0", "utf-8", null),
        new XElement(
            Disco + "discovery",
            new XElement(DiscoScl + "contractRef", new XAttribute("ref", address + "?wsdl"), new XAttribute("docRef", address)),
            new XElement(
                DiscoSoap + "soap",
                new XAttribute("address", address),
                new XAttribute(XNamespace.Xmlns + "q1", _tns.NamespaceName),
                new XAttribute("binding", "q1:" + BindingName))));

    private static string SchemaLocation(string address, int index) => $"{address}?xsd=xsd{index}";

    private static string? TargetNamespace(XElement schema) => (string?)schema.Attribute("targetNamespace");

    private int IndexOf(string? targetNamespace)
    {
        for (int i = 0; i < _schemas.Count; i++)
        {
            if (TargetNamespace(_schemas[i]) == targetNamespace)
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>
    /// Names the WSDL messages as CoreWCF's MessageContractExporter.GetMessageName does: a message contract's after its
    /// type (NamingHelper.TypeName), which also names the operation's input or output (WsdlExporter's
    /// CreateWsdlOperationMessage and its binding's counterpart); any other <c>{Contract}_{operation}_Input/OutputMessage</c>
    /// with no such name. A name already taken gets 1, 2, … appended (NamingHelper.GetUniqueName).
    /// </summary>
    private void NameMessages(IReadOnlySet<string> typedWrappers)
    {
        var taken = new HashSet<string>(StringComparer.Ordinal);
        foreach (SoapOperation operation in _operations)
        {
            foreach (bool input in (bool[])[true, false])
            {
                string wrapper = WrapperOf(operation, input);
                Type type = input ? operation.RequestType : operation.ResponseType;
                string? typeName = typedWrappers.Contains(wrapper) ? XmlName(TypeName(type)) : null;
                string name = typeName ?? $"{_contractName}_{operation.Name}_{(input ? "Input" : "Output")}Message";
                string unique = name;
                for (int i = 1; !taken.Add(unique); i++)
                {
                    unique = name + i.ToString(CultureInfo.InvariantCulture);
                }

                _messages[(operation, input)] = new WsdlMessage(unique, typeName, wrapper);
            }
        }
    }

    /// <summary>CoreWCF's NamingHelper.TypeName: generic arguments spelled out after "Of", arrays as "ArrayOf".</summary>
    private static string TypeName(Type type)
    {
        if (type.IsGenericType || type.ContainsGenericParameters)
        {
            int end = type.Name.IndexOf('`', StringComparison.Ordinal);
            string name = (end > 0 ? type.Name[..end] : type.Name) + "Of";
            return type.GetGenericArguments().Aggregate(name, (current, argument) => current + "_" + TypeName(argument));
        }

        return type.IsArray ? "ArrayOf" + TypeName(type.GetElementType()!) : type.Name;
    }

    /// <summary>CoreWCF's NamingHelper.XmlName: a name that is no valid XML name is encoded.</summary>
    private static string XmlName(string name)
    {
        try
        {
            return XmlConvert.VerifyNCName(name);
        }
        catch (XmlException)
        {
            return XmlConvert.EncodeLocalName(name)!;
        }
    }

    private static string WrapperOf(SoapOperation operation, bool input) => operation.RequestWrapper.Name + (input ? "" : "Response");

    private IEnumerable<XElement> Messages(SoapOperation operation) =>
        from input in (bool[])[true, false]
        let message = _messages[(operation, input)]
        select Message(message.Name, message.Element);

    private static XElement Message(string name, string element) => new(
        Wsdl + "message",
        new XAttribute("name", name),
        new XElement(Wsdl + "part", new XAttribute("name", "parameters"), new XAttribute("element", "tns:" + element)));

    private XElement PortTypeOperation(SoapOperation operation) => new(
        Wsdl + "operation",
        new XAttribute("name", operation.Name),
        OperationMessage("input", operation.Action, _messages[(operation, true)]),
        OperationMessage("output", operation.Action + "Response", _messages[(operation, false)]));

    private static XElement OperationMessage(string direction, string action, WsdlMessage message) => new(
        Wsdl + direction,
        new XAttribute(Wsaw + "Action", action),
        message.OperationName is { } name ? new XAttribute("name", name) : null,
        new XAttribute("message", "tns:" + message.Name));

    private XElement BindingOperation(SoapOperation operation) => new(
        Wsdl + "operation",
        new XAttribute("name", operation.Name),
        new XElement(WsdlSoap + "operation", new XAttribute("soapAction", operation.Action), new XAttribute("style", "document")),
        MessageBinding("input", _messages[(operation, true)]),
        MessageBinding("output", _messages[(operation, false)]));

    private static XElement MessageBinding(string direction, WsdlMessage message) => new(
        Wsdl + direction,
        message.OperationName is { } name ? new XAttribute("name", name) : null,
        new XElement(WsdlSoap + "body", new XAttribute("use", "literal")));

    /// <summary>A WSDL message: its name, the name its operation's input or output carries (message contracts only), and its part's element.</summary>
    private sealed record WsdlMessage(string Name, string? OperationName, string Element);
}
