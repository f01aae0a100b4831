using System.Net;
using System.Runtime.Serialization;
using System.ServiceModel.Description;
using System.Xml.Linq;
using System.Xml.Schema;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// Metadata as CoreWCF's ServiceMetadataBehavior (HttpGetEnabled) and ServiceDebugBehavior (help page) serve it:
/// parsed with System.Xml and XmlSchemaSet (no WSDL reader restores from the package source), checked structurally,
/// and used by a client that knows nothing but the WSDL.
/// </summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapMetadataTests(SoapServerFixture server)
{
    private static readonly XNamespace Wsdl = "http://schemas.xmlsoap.org/wsdl/";
    private static readonly XNamespace WsdlSoap = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static readonly XNamespace Xsd = XmlSchema.Namespace;
    private static readonly string[] CalculatorOperations = ["Compute", "ComputeAsync", "Echo", "Fail", "FailAsync", "Crash", "SpinUntilAborted"];

    [Fact]
    public async Task Wsdl_NamesEveryOperationWithItsSoapAction_AndImportsSchemasThatCompile()
    {
        XDocument wsdl = await GetXmlAsync(SoapServerFixture.CalculatorPath + "?wsdl");

        XElement definitions = wsdl.Root!;
        Assert.Equal(Wsdl + "definitions", definitions.Name);
        Assert.Equal(TestService.Namespace, (string?)definitions.Attribute("targetNamespace"));
        XElement binding = definitions.Element(Wsdl + "binding")!;
        Assert.Equal(CalculatorOperations, binding.Elements(Wsdl + "operation").Select(operation => (string)operation.Attribute("name")!));
        foreach (XElement operation in binding.Elements(Wsdl + "operation"))
        {
            string name = (string)operation.Attribute("name")!;
            Assert.Equal(SoapServerFixture.ActionOf(name), (string?)operation.Element(WsdlSoap + "operation")!.Attribute("soapAction"));
        }

        Assert.Equal(new Uri(server.BaseAddress, SoapServerFixture.CalculatorPath).ToString(), PortAddress(wsdl));
        string[] locations = [.. definitions.Descendants(Xsd + "import").Select(import => (string)import.Attribute("schemaLocation")!)];
        Assert.NotEmpty(locations);
        var schemas = new List<XElement>();
        foreach (string location in locations)
        {
            Assert.StartsWith(PortAddress(wsdl) + "?xsd=xsd", location);
            schemas.Add((await GetXmlAsync(new Uri(location).PathAndQuery)).Root!);
        }

        var client = new WsdlClient(new XDocument(new XElement(Wsdl + "definitions", new XElement(Wsdl + "types", schemas))));
        Assert.True(client.Schemas.Contains(TestService.Namespace));
    }

    [Theory]
    [InlineData(SoapServerFixture.CalculatorPath)]
    [InlineData(SoapServerFixture.InventoryPath)]
    public async Task SingleWsdl_HasEverySchemaInline(string path)
    {
        XDocument wsdl = await GetXmlAsync(path + "?singleWsdl");

        Assert.DoesNotContain(wsdl.Descendants(), element => element.Attribute("schemaLocation") is not null);
        Assert.Empty(wsdl.Root!.Elements(Wsdl + "import"));
        // Compiling proves every imported namespace is there.
        _ = new WsdlClient(wsdl);
    }

    [Fact]
    public async Task ClientBuiltFromTheWsdlAlone_CallsTheService_AndItsMessagesValidate()
    {
        var calculator = new WsdlClient(await GetXmlAsync(SoapServerFixture.CalculatorPath + "?singleWsdl"));
        var inventory = new WsdlClient(await GetXmlAsync(SoapServerFixture.InventoryPath + "?singleWsdl"));

        XElement sum = await calculator.CallAsync(server.Http, "Compute", new Dictionary<string, string> { ["iterations"] = "5" });
        XElement echo = await calculator.CallAsync(server.Http, "Echo", new Dictionary<string, string> { ["text"] = "from the WSDL" });
        XElement reserved = await inventory.CallAsync(server.Http, "Reserve", new Dictionary<string, string> { ["sku"] = "A-1", ["count"] = "3" });
        XElement described = await inventory.CallAsync(server.Http, "Describe", new Dictionary<string, string> { [""] = "B-2" });

        Assert.Equal("15", sum.Element(XName.Get("sum", TestService.Namespace))!.Value);
        Assert.Equal("from the WSDL", echo.Element(XName.Get("text", TestService.Namespace))!.Value);
        Assert.Equal("3", reserved.Element(XName.Get("reserved", InventoryService.DataNamespace))!.Value);
        Assert.Equal("B-2: in stock", described.Value);
        Assert.Equal("urn:harness:inventory/IInventory/Reserve", inventory.SoapAction("Reserve"));
    }

    [Fact]
    public async Task WcfContractAttributes_MatchTheWsdl_AndItsChannelCalls()
    {
        var wsdl = new WsdlClient(await GetXmlAsync(SoapServerFixture.CalculatorPath + "?singleWsdl"));
        OperationDescription compute = ContractDescription.GetContract(typeof(IWcfCalculator)).Operations.Single();

        Assert.Equal(wsdl.SoapAction("Compute"), compute.Messages[0].Action);
        Assert.Equal(wsdl.MessageElement("Compute", input: true), XName.Get(compute.Messages[0].Body.WrapperName, compute.Messages[0].Body.WrapperNamespace));
        Assert.Equal(wsdl.MessageElement("Compute", input: false), XName.Get(compute.Messages[1].Body.WrapperName, compute.Messages[1].Body.WrapperNamespace));
        IWcfCalculator channel = server.CreateWcfChannel<IWcfCalculator>(new Uri(wsdl.Address).AbsolutePath);
        Assert.Equal(28, (await channel.ComputeAsync(new WcfComputeRequest { Iterations = 7 })).Sum);
    }

    [Fact]
    public async Task PortAndSchemaAddresses_AreTakenFromTheRequest()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(server.BaseAddress, SoapServerFixture.CalculatorPath + "?wsdl"));
        request.Headers.Host = "soap.example:8080";

        using HttpResponseMessage response = await server.Http.SendAsync(request);
        XDocument wsdl = XDocument.Parse(await response.Content.ReadAsStringAsync());

        Assert.Equal("http://soap.example:8080/calculator", PortAddress(wsdl));
        Assert.All(wsdl.Descendants(Xsd + "import"), import => Assert.StartsWith("http://soap.example:8080/calculator?xsd=xsd", (string)import.Attribute("schemaLocation")!));
    }

    [Fact]
    public async Task Disco_PointsAtTheWsdlAndTheBinding()
    {
        XDocument disco = await GetXmlAsync(SoapServerFixture.CalculatorPath + "?disco");

        string address = new Uri(server.BaseAddress, SoapServerFixture.CalculatorPath).ToString();
        XElement contractRef = disco.Root!.Element(XName.Get("contractRef", "http://schemas.xmlsoap.org/disco/scl/"))!;
        XElement soap = disco.Root.Element(XName.Get("soap", "http://schemas.xmlsoap.org/disco/soap/"))!;
        Assert.Equal(address + "?wsdl", (string?)contractRef.Attribute("ref"));
        Assert.Equal(address, (string?)soap.Attribute("address"));
        Assert.EndsWith(":BasicHttpBinding_Calculator", (string?)soap.Attribute("binding"));
    }

    [Theory]
    [InlineData("?xsd=xsd99")]
    [InlineData("?xsd=one")]
    [InlineData("?wsdl=wsdl0")]
    public async Task DocumentThatDoesNotExist_Is404(string query)
    {
        using HttpResponseMessage response = await server.Http.GetAsync(new Uri(server.BaseAddress, SoapServerFixture.CalculatorPath + query));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Theory]
    [InlineData(SoapServerFixture.CalculatorPath, "", "You have created a service.")]
    [InlineData(SoapServerFixture.CalculatorPath, "?unknown", "?singleWsdl")]
    [InlineData(SoapServerFixture.SmallPath, "", "Metadata publishing for this service is currently disabled.")]
    [InlineData(SoapServerFixture.SmallPath, "?wsdl", "Metadata publishing for this service is currently disabled.")]
    public async Task Get_ShowsTheHelpPage(string path, string query, string expected)
    {
        using HttpResponseMessage response = await server.Http.GetAsync(new Uri(server.BaseAddress, path + query));
        string page = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("<title>Calculator Service</title>", page);
        Assert.Contains(expected, page);
    }

    [Fact]
    public async Task Get_WithTheHelpPageOff_IsARequestWithoutABody_A400()
    {
        using HttpResponseMessage response = await server.Http.GetAsync(new Uri(server.BaseAddress, SoapServerFixture.DebugPath + "?wsdl"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Fact]
    public void PublishingIsOffAndTheHelpPageOn_ByDefault_AsInCoreWcf()
    {
        var options = new SoapEndpointOptions();

        Assert.False(options.HttpGetEnabled);
        Assert.True(options.HttpHelpPageEnabled);
    }

    [Fact]
    public void ContractWhoseSchemasClash_FailsWhenItsMetadataIsBuilt()
    {
        // A member's data contract is exported with its global element 'Compute', the name of the Compute wrapper.
        SoapContract contract = new SoapContract("Clash")
            .AddOperation<ComputeRequest, ComputeResponse>("Compute", request => new ComputeResponse())
            .AddOperation<ComputeHolder, EchoMessage>("Echo", request => new EchoMessage());

        InvalidOperationException error = Assert.Throws<InvalidOperationException>(
            () => new SoapMetadata(contract.Name, contract.Namespace, contract.Freeze()));

        Assert.Contains("'Compute'", error.Message);
    }

    [Fact]
    public async Task Wsdl_HasCoreWcfsShapeForWrappedMessageContracts()
    {
        XElement definitions = (await GetXmlAsync(SoapServerFixture.InventoryPath + "?singleWsdl")).Root!;
        XElement calculator = (await GetXmlAsync(SoapServerFixture.CalculatorPath + "?singleWsdl")).Root!;
        XElement[] schemas = [.. definitions.Element(Wsdl + "types")!.Elements(Xsd + "schema")];
        XElement reserve = Global(schemas, InventoryService.Namespace, "element", "Reserve")!;

        // Messages are named after the message contract's type (a repeated one numbered), a type no message contract
        // stands for as {Contract}_{operation}_Input/OutputMessage.
        Assert.Equal(
            ["ReserveRequest", "ReserveResponse", "IInventory_Describe_InputMessage", "IInventory_Describe_OutputMessage"],
            definitions.Elements(Wsdl + "message").Select(message => (string)message.Attribute("name")!));
        Assert.Equal(
            ["ComputeRequest", "ComputeResponse", "ComputeRequest1", "ComputeResponse1", "EchoMessage", "EchoMessage1"],
            calculator.Elements(Wsdl + "message").Take(6).Select(message => (string)message.Attribute("name")!));
        // The operation's input and output carry the type's name, in the port type and in the binding.
        foreach (string container in (string[])["portType", "binding"])
        {
            XElement[] operations = [.. definitions.Element(Wsdl + container)!.Elements(Wsdl + "operation")];
            Assert.Equal(["ReserveRequest", "ReserveResponse", null, null], operations.SelectMany(Directions).Select(message => (string?)message.Attribute("name")));
        }

        // The wrapper has an anonymous type; a member in another namespace is a reference to a global element there.
        Assert.Null(reserve.Attribute("type"));
        Assert.Equal(
            ["q:sku", "q:count"],
            reserve.Descendants(Xsd + "element").Select(member => ((string)member.Attribute("ref")!).Split(':') is [_, string local] ? "q:" + local : "?"));
        Assert.Equal("xs:string", (string?)Global(schemas, InventoryService.DataNamespace, "element", "sku")!.Attribute("type"));
        // The request and response types are message contracts, not data contracts: nothing of theirs is exported.
        Assert.All(
            (string[])["ReserveRequest", "ReserveResponse"],
            name => Assert.Null(Global(schemas, InventoryService.DataNamespace, "element", name) ?? Global(schemas, InventoryService.DataNamespace, "complexType", name)));
        Assert.Equal("xs:string", (string?)Global(schemas, InventoryService.Namespace, "element", "Describe")!.Attribute("type"));

        static IEnumerable<XElement> Directions(XElement operation) => [operation.Element(Wsdl + "input")!, operation.Element(Wsdl + "output")!];
    }

    private static XElement? Global(XElement[] schemas, string targetNamespace, string kind, string name) =>
        schemas.Where(schema => (string?)schema.Attribute("targetNamespace") == targetNamespace)
            .SelectMany(schema => schema.Elements(Xsd + kind))
            .FirstOrDefault(item => (string?)item.Attribute("name") == name);

    private static string PortAddress(XDocument wsdl) => (string)wsdl.Descendants(WsdlSoap + "address").Single().Attribute("location")!;

    private async Task<XDocument> GetXmlAsync(string pathAndQuery)
    {
        using HttpResponseMessage response = await server.Http.GetAsync(new Uri(server.BaseAddress, pathAndQuery));
        string body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{pathAndQuery}: {(int)response.StatusCode}");
        Assert.Equal("text/xml", response.Content.Headers.ContentType?.MediaType);
        return XDocument.Parse(body);
    }

    /// <summary>A data contract whose element takes the name of another operation's wrapper.</summary>
    [DataContract(Name = "Compute", Namespace = TestService.Namespace)]
    public sealed class NamedCompute
    {
        [DataMember]
        public int Value { get; set; }
    }

    /// <summary>A request with a member of that data contract, so the contract is exported for the member.</summary>
    [DataContract(Namespace = TestService.Namespace)]
    public sealed class ComputeHolder
    {
        [DataMember]
        public NamedCompute? Inner { get; set; }
    }
}
