using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Harness.Contracts;
using Harness.LoadTests.Clients.Soap;
using Harness.LoadTests.Hosting;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>
/// The lean SOAP client (<c>--soap-client lean</c>, the default) against a real Kestrel endpoint that answers each
/// Compute by its iterations: a reply, a fault, an HTTP error, a reset. Each failure is counted under the status the WCF
/// client's is counted under (<see cref="FailureStatus"/>), so the default client changes no failure's name.
/// </summary>
public sealed partial class LeanSoapClientTests : IAsyncLifetime
{
    private const string Reply =
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><ComputeResponse xmlns=\"http://tempuri.org/\" "
        + "xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\"><Result>89</Result><ThreadId>6</ThreadId><ElapsedMs>12.5</ElapsedMs></ComputeResponse></s:Body></s:Envelope>";

    private WebApplication? _server;
    private Uri _address = null!;

    public async Task InitializeAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        _server = builder.Build();
        _server.MapPost(HarnessContract.SoapPath, AnswerAsync);
        await _server.StartAsync();
        _address = new Uri(_server.Urls.First());
    }

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }

    [Fact]
    public async Task Reply_IsReadForItsFigures_AndTheServersTime()
    {
        using var client = new LeanSoapClient(_address);

        var reply = await client.ComputeAsync(1);

        Assert.Equal(89, reply.Result);
        Assert.Equal(6, reply.ThreadId);
        Assert.Equal(12.5, reply.ElapsedMs);
    }

    [Theory]
    [InlineData(2, "soap-fault-Client")]
    [InlineData(3, "soap-fault-Server")]
    [InlineData(4, "soap-fault-Server")]
    [InlineData(7, "soap-communication")]
    [InlineData(9, "soap-communication")]
    public async Task Failure_IsCountedUnderTheStatusTheWcfClientsIs(int answer, string expected)
    {
        // Arrange
        using var lean = new LeanSoapClient(_address);
        using var wcf = new HarnessSoapClient(_address, TimeSpan.FromSeconds(10));

        // Act
        var leanFailure = await Record.ExceptionAsync(() => lean.ComputeAsync(answer));
        var wcfFailure = await Record.ExceptionAsync(() => wcf.ComputeAsync(answer));

        // Assert: the same status and the same verdict on backing off, whichever client sent it.
        Assert.NotNull(leanFailure);
        Assert.NotNull(wcfFailure);
        Assert.Equal(FailureStatus.Of(wcfFailure), FailureStatus.Of(leanFailure));
        Assert.Equal(expected, FailureStatus.Of(leanFailure));
        Assert.Equal(FailureStatus.IsConnectionFailure(wcfFailure), FailureStatus.IsConnectionFailure(leanFailure));
    }

    [Theory]
    [InlineData(5, "http-500")]
    [InlineData(6, "http-503")]
    public async Task HttpErrorWithoutAFault_IsCountedByItsStatus_AndTheTargetIsUp(int answer, string expected)
    {
        // WCF counts these as soap-communication, its exceptions naming no status; the lean client says which.
        using var client = new LeanSoapClient(_address);

        var ex = await Record.ExceptionAsync(() => client.ComputeAsync(answer));

        Assert.NotNull(ex);
        Assert.Equal(expected, FailureStatus.Of(ex));
        Assert.False(FailureStatus.IsConnectionFailure(ex));
    }

    [Fact]
    public async Task ClosedPort_IsAConnectionFailure()
    {
        using var client = new LeanSoapClient(new Uri($"http://127.0.0.1:{LoopbackPorts.Free(1)[0]}"));

        var ex = await Record.ExceptionAsync(() => client.ComputeAsync(1));

        Assert.NotNull(ex);
        Assert.Equal("connection", FailureStatus.Of(ex));
        Assert.True(FailureStatus.IsConnectionFailure(ex), $"{ex.GetType().Name}: {ex.Message}");
    }

    [Fact]
    public async Task CallClient_TakesTheServersTimeFromItsHeader()
    {
        using var client = new SoapCallClient(new Uri(_address, HarnessContract.SoapPath), "http://tempuri.org/IHarnessService/Compute", SoapVersion.Soap11, []);

        var reply = await client.SendAsync(Envelope(8), CancellationToken.None);

        Assert.Equal(TimeSpan.FromMilliseconds(7.25), reply.ServerTime);
        Assert.Contains("<Result>89</Result>", Encoding.UTF8.GetString(reply.Body), StringComparison.Ordinal);
    }

    private static byte[] Envelope(int iterations) => Encoding.UTF8.GetBytes(
        $"<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><Compute xmlns=\"http://tempuri.org/\"><iterations>{iterations}</iterations></Compute></s:Body></s:Envelope>");

    /// <summary>Answers by the request's iterations, so both clients meet the same answer.</summary>
    private static async Task AnswerAsync(HttpContext context)
    {
        using var reader = new StreamReader(context.Request.Body);
        var request = await reader.ReadToEndAsync();
        var iterations = int.Parse(Iterations().Match(request).Groups[1].Value, CultureInfo.InvariantCulture);
        switch (iterations)
        {
            case 1:
                await Xml(context, 200, Reply);
                break;
            case 2:
                await Xml(context, 500, Fault("s:Client"));
                break;
            case 3:
                await Xml(context, 500, Fault("s:Server"));
                break;
            case 4:
                await Xml(context, 500, Fault("a:QueueFull", " xmlns:a=\"urn:example\""));
                break;
            case 5:
                context.Response.StatusCode = 500;
                await context.Response.WriteAsync("boom");
                break;
            case 6:
                context.Response.StatusCode = 503;
                await context.Response.WriteAsync("busy");
                break;
            case 7:
                // A reply that is not the operation's: a 200 with another body.
                await Xml(context, 200, "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><Other xmlns=\"http://tempuri.org/\"/></s:Body></s:Envelope>");
                break;
            case 8:
                context.Response.Headers["harness-server-time-ms"] = "7.25";
                await Xml(context, 200, Reply);
                break;
            default:
                context.Features.Get<IConnectionLifetimeFeature>()?.Abort();
                break;
        }
    }

    private static Task Xml(HttpContext context, int status, string body)
    {
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/xml; charset=utf-8";
        return context.Response.WriteAsync(body);
    }

    /// <param name="declaration">Declares the code's prefix when it is not the envelope's.</param>
    private static string Fault(string code, string declaration = "") =>
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><s:Fault>"
        + $"<faultcode{declaration}>{code}</faultcode><faultstring xml:lang=\"en-US\">refused</faultstring></s:Fault></s:Body></s:Envelope>";

    [GeneratedRegex("<iterations>(-?\\d+)</iterations>")]
    private static partial Regex Iterations();
}
