using System.Text;
using System.Xml.Linq;
using Harness.LoadTests.Clients.Soap;
using Harness.ServiceDefaults;
using Harness.SoapService;
using Microsoft.AspNetCore.Builder;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>The WSDL reader and the envelope writer against our own SOAP service's WSDL, the shape BasicHttpBinding serves.</summary>
public sealed class WsdlEnvelopeTests : IAsyncLifetime
{
    private WebApplication? _app;
    private readonly HttpClient _http = new();

    private Uri Endpoint => new(_app!.GetBoundAddress(), "HarnessService.svc");

    public async Task InitializeAsync()
    {
        _app = SoapApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal"]);
        await _app.StartAsync();
    }

    public async Task DisposeAsync()
    {
        _http.Dispose();
        await _app!.DisposeAsync();
    }

    [Theory]
    [InlineData(null)]
    [InlineData("?wsdl")]
    public async Task Operations_ComeWithTheirActionAndWrapper_FromTheSingleWsdlOrTheOneThatImportsItsSchemas(string? wsdl)
    {
        var document = await WsdlDocument.LoadAsync(wsdl is null ? null : Endpoint + wsdl, Endpoint, _http, CallTimeouts.Default, CancellationToken.None);

        Assert.Equal(["Compute", "CallThirdParty"], document.Operations.Select(o => o.Name));
        var (operation, input) = document.Find("CallThirdParty");
        Assert.Equal("http://tempuri.org/IHarnessService/CallThirdParty", operation.SoapAction);
        Assert.Equal(XName.Get("CallThirdParty", "http://tempuri.org/"), input.Name);
        Assert.Equal(["fanout", "delayMs", "style", "parallelism"], document.Schemas.Children(input).Select(c => c.Name.LocalName));
        Assert.Equal(SoapVersion.Soap11, document.Version);
    }

    [Fact]
    public async Task Envelope_PutsTheChildrenInTheSchemasOrder_InTheContractsNamespace()
    {
        var document = await WsdlDocument.LoadAsync(null, Endpoint, _http, CallTimeouts.Default, CancellationToken.None);
        var (_, input) = document.Find("CallThirdParty");

        var envelope = new SoapEnvelopeWriter(document.Schemas, input, document.Version)
            .Encode("""{"parallelism":0,"style":"task-delay","delayMs":1000,"fanout":4}""");

        Assert.Equal(
            """<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><CallThirdParty xmlns="http://tempuri.org/"><fanout>4</fanout><delayMs>1000</delayMs><style>task-delay</style><parallelism>0</parallelism></CallThirdParty></s:Body></s:Envelope>""",
            Encoding.UTF8.GetString(envelope));
    }

    [Fact]
    public async Task Envelope_FromAWsdlFile_IsServedByTheService_AndItsFaultsAreCountedByCode()
    {
        // The WSDL as a file, as --wsdl FILE takes it.
        var folder = Directory.CreateTempSubdirectory("harness-tests-");
        var file = Path.Combine(folder.FullName, "harness.wsdl");
        await File.WriteAllTextAsync(file, await _http.GetStringAsync(Endpoint + "?singleWsdl"));
        var document = await WsdlDocument.LoadAsync(file, Endpoint, _http, CallTimeouts.Default, CancellationToken.None);
        var (operation, input) = document.Find("Compute");
        var writer = new SoapEnvelopeWriter(document.Schemas, input, document.Version);
        using var client = new SoapCallClient(Endpoint, operation.SoapAction, document.Version, []);

        var reply = XDocument.Parse(Encoding.UTF8.GetString((await client.SendAsync(writer.Encode("""{"iterations":5}"""), CancellationToken.None)).Body));
        var refused = await Assert.ThrowsAsync<CallFailedException>(() => client.SendAsync(writer.Encode("""{"iterations":-1}"""), CancellationToken.None));

        Assert.Equal("89", reply.Descendants(XName.Get("Result", "http://tempuri.org/")).Single().Value);
        Assert.Equal("soap-fault-Client", refused.Status);
    }

    [Fact]
    public async Task PropertyTheElementLacks_IsRefused_ListingItsElements()
    {
        var document = await WsdlDocument.LoadAsync(null, Endpoint, _http, CallTimeouts.Default, CancellationToken.None);
        var (_, input) = document.Find("CallThirdParty");
        var writer = new SoapEnvelopeWriter(document.Schemas, input, document.Version);

        var refusal = Assert.Throws<CallSetupException>(() => writer.Encode("""{"fanout":1,"delay":5}"""));

        Assert.Equal("element 'CallThirdParty' has no element 'delay'; its elements are fanout, delayMs, style, parallelism", refusal.Message);
    }

    [Fact]
    public async Task UnknownOperation_IsRefused_ListingTheOperations()
    {
        var document = await WsdlDocument.LoadAsync(null, Endpoint, _http, CallTimeouts.Default, CancellationToken.None);

        var refusal = Assert.Throws<CallSetupException>(() => document.Find("Fibonacci"));

        Assert.Contains("has no operation Fibonacci; its operations are Compute, CallThirdParty.", refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Soap12FaultWithSubcode_IsCountedByTheSubcode()
    {
        var reply = """
            <env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:rpc="http://www.w3.org/2003/05/soap-rpc"><env:Body><env:Fault>
              <env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>rpc:BadArguments</env:Value></env:Subcode></env:Code>
              <env:Reason><env:Text xml:lang="en">Processing error</env:Text></env:Reason>
            </env:Fault></env:Body></env:Envelope>
            """u8.ToArray();

        var fault = SoapCallClient.FaultIn(reply);

        Assert.Equal("soap-fault-BadArguments", fault?.Status);
        Assert.Equal("rpc:BadArguments: Processing error", fault?.Message);
    }
}
