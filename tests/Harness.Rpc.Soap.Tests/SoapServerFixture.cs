using System.Net;
using System.ServiceModel;
using System.Text;
using System.Xml.Linq;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// One Kestrel server on 127.0.0.1 (port 0) serving the test contract on several endpoints that differ only in options.
/// </summary>
public sealed class SoapServerFixture : IAsyncLifetime
{
    public const string CalculatorPath = "/calculator";
    public const string SmallPath = "/small";
    public const string DebugPath = "/debug";
    public const string ContextPath = "/context";
    public const string InventoryPath = "/inventory.svc";
    public const int SmallLimit = 1024;

    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(20);

    private WebApplication? _app;
    private readonly List<SoapClient> _clients = [];
    private readonly List<ICommunicationObject> _wcfFactories = [];

    internal DedicatedThreadSynchronizationContext DispatchContext { get; } = new("soap-dispatch");

    public Uri BaseAddress { get; private set; } = null!;

    /// <summary>What the server logged at Warning or above.</summary>
    public CapturingLoggerProvider Logs { get; } = new();

    /// <summary>A plain client for hand-made requests.</summary>
    public HttpClient Http { get; } = new(new SocketsHttpHandler { UseProxy = false }) { Timeout = CallTimeout };

    public async Task InitializeAsync()
    {
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0));
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(Logs);
        _app = builder.Build();
        _app.MapSoapEndpoint(CalculatorPath, TestService.CreateContract(), options => options.HttpGetEnabled = true);
        // Metadata off, help page on: the defaults.
        _app.MapSoapEndpoint(SmallPath, TestService.CreateContract(), options => options.MaxReceivedMessageSize = SmallLimit);
        _app.MapSoapEndpoint(DebugPath, TestService.CreateContract(), options =>
        {
            options.IncludeExceptionDetailInFaults = true;
            options.HttpHelpPageEnabled = false;
        });
        _app.MapSoapEndpoint(InventoryPath, InventoryService.CreateContract(), options => options.HttpGetEnabled = true);
        _app.MapSoapEndpoint(ContextPath, TestService.CreateContract(), options => options.SynchronizationContextFactory = _ => DispatchContext);
        await _app.StartAsync();
        string address = _app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single();
        BaseAddress = new Uri(address);
    }

    public async Task DisposeAsync()
    {
        foreach (SoapClient client in _clients)
        {
            client.Dispose();
        }

        foreach (ICommunicationObject factory in _wcfFactories)
        {
            factory.Abort();
        }

        Http.Dispose();
        if (_app is not null)
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }

        DispatchContext.Dispose();
    }

    public SoapClient CreateClient(string path, string contractName = TestService.Name)
    {
        var client = new SoapClient(new Uri(BaseAddress, path), new SoapContract(contractName, TestService.Namespace)) { Timeout = CallTimeout };
        _clients.Add(client);
        return client;
    }

    /// <summary>A WCF client channel (ChannelFactory over BasicHttpBinding, no security) for <paramref name="path"/>.</summary>
    public TContract CreateWcfChannel<TContract>(string path)
    {
        var binding = new BasicHttpBinding(BasicHttpSecurityMode.None) { SendTimeout = CallTimeout, ReceiveTimeout = CallTimeout };
        var factory = new ChannelFactory<TContract>(binding, new EndpointAddress(new Uri(BaseAddress, path)));
        _wcfFactories.Add(factory);
        return factory.CreateChannel();
    }

    public static string Envelope(string body, string? header = null) =>
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + (header is null ? "" : $"<s:Header>{header}</s:Header>")
        + $"<s:Body>{body}</s:Body></s:Envelope>";

    public static string ActionOf(string operation) => $"{TestService.Namespace}{TestService.Name}/{operation}";

    /// <summary>Posts <paramref name="body"/> as is and returns what came back.</summary>
    public Task<RawResponse> PostAsync(
        string path,
        string body,
        string? operation = "Compute",
        string? contentType = "text/xml; charset=utf-8",
        bool chunked = false) =>
        SendAsync(HttpMethod.Post, path, Encoding.UTF8.GetBytes(body), operation is null ? null : $"\"{ActionOf(operation)}\"", contentType, chunked);

    /// <summary>Sends <paramref name="body"/> with <paramref name="method"/> and the SOAPAction header exactly as given.</summary>
    public async Task<RawResponse> SendAsync(
        HttpMethod method, string path, byte[] body, string? soapAction, string? contentType, bool chunked = false)
    {
        using var request = new HttpRequestMessage(method, new Uri(BaseAddress, path))
        {
            Content = new ByteArrayContent(body),
        };
        // Parsed without validation so tests can send content types a strict parser would refuse.
        if (contentType is not null)
        {
            request.Content.Headers.TryAddWithoutValidation("Content-Type", contentType);
        }

        if (soapAction is not null)
        {
            request.Headers.TryAddWithoutValidation("SOAPAction", soapAction);
        }

        if (chunked)
        {
            request.Headers.TransferEncodingChunked = true;
        }

        using HttpResponseMessage response = await Http.SendAsync(request);
        return new RawResponse(response.StatusCode, response.Content.Headers.ContentType?.ToString(), await response.Content.ReadAsStringAsync());
    }

    /// <summary>Proves the server still answers a valid call after whatever the test sent it.</summary>
    public async Task AssertStillServingAsync()
    {
        using var client = new SoapClient(new Uri(BaseAddress, CalculatorPath), new SoapContract(TestService.Name, TestService.Namespace)) { Timeout = CallTimeout };
        ComputeResponse response = await client.InvokeAsync<ComputeRequest, ComputeResponse>("Compute", new ComputeRequest { Iterations = 4 });
        Assert.Equal(10, response.Sum);
    }
}

public sealed record RawResponse(HttpStatusCode Status, string? ContentType, string Body)
{
    private static readonly XNamespace Soap = "http://schemas.xmlsoap.org/soap/envelope/";

    /// <summary>The fault's faultcode as (namespace, local name), the prefix resolved where it is declared.</summary>
    public (string Namespace, string Name, string Reason) Fault()
    {
        XElement fault = XDocument.Parse(Body).Root!.Element(Soap + "Body")!.Element(Soap + "Fault")!;
        XElement code = fault.Element("faultcode")!;
        string[] parts = code.Value.Split(':');
        return (code.GetNamespaceOfPrefix(parts[0])!.NamespaceName, parts[1], fault.Element("faultstring")!.Value);
    }
}

[CollectionDefinition(Name)]
public sealed class SoapServerCollection : ICollectionFixture<SoapServerFixture>
{
    public const string Name = "SOAP server";
}
