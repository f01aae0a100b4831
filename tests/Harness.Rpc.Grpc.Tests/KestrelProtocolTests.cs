using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Harness.Rpc.Grpc.Tests;

/// <summary>What a cleartext Kestrel endpoint accepts, measured with real connections.</summary>
public sealed class KestrelProtocolTests
{
    private static readonly TimeSpan TestTimeout = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task CleartextHttp1AndHttp2Endpoint_RefusesHttp2PriorKnowledge_AndServesOnlyHttp11()
    {
        // Without TLS there is no ALPN, and Kestrel (.NET 10) does not sniff the HTTP/2 preface on an
        // Http1AndHttp2 endpoint: it runs HTTP/1.1 and answers a prior-knowledge connection with a GOAWAY
        // carrying HTTP_1_1_REQUIRED (dotnet/aspnetcore#56984).
        await using var server = await StartAsync(HttpProtocols.Http1AndHttp2);
        using var grpcClient = new GrpcUnaryClient(server.Address);
        using var http11Client = new HttpClient();

        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            grpcClient.CallAsync<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", new EchoRequest { Message = "h2c" }).WaitAsync(TestTimeout));
        using var healthz = await http11Client.GetAsync(new Uri(server.Address, "/healthz")).WaitAsync(TestTimeout);

        Assert.Equal(GrpcStatusCode.Internal, ex.StatusCode);
        Assert.Contains("HTTP_1_1_REQUIRED", ex.Detail, StringComparison.Ordinal);
        Assert.Equal("HTTP/1.1", await healthz.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Http2EndpointPlusHttp1Endpoint_ServeGrpcAndPlainHttpFromOneServer()
    {
        // The setup that works in cleartext: one Http2-only port for gRPC, one HTTP/1.1 port for /healthz and /metrics.
        await using var server = await StartAsync(HttpProtocols.Http2, HttpProtocols.Http1);
        using var grpcClient = new GrpcUnaryClient(server.Addresses[0]);
        using var http11Client = new HttpClient();

        var reply = await grpcClient.CallAsync<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", new EchoRequest { Message = "h2c" }).WaitAsync(TestTimeout);
        using var healthz = await http11Client.GetAsync(new Uri(server.Addresses[1], "/healthz")).WaitAsync(TestTimeout);

        Assert.Equal("h2c", reply.Message);
        Assert.Equal(HttpStatusCode.OK, healthz.StatusCode);
        Assert.Equal("HTTP/1.1", await healthz.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task GrpcCallOverHttp11_Is426UpgradeRequired()
    {
        await using var server = await StartAsync(HttpProtocols.Http1AndHttp2);
        using var http11Client = new HttpClient();
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(server.Address, "/harness.test.Echo/Echo"))
        {
            Version = HttpVersion.Version11,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent(GrpcWireTests.Frame(new EchoRequest())),
        };
        request.Content.Headers.ContentType = new("application/grpc");

        using var response = await http11Client.SendAsync(request).WaitAsync(TestTimeout);

        Assert.Equal(HttpStatusCode.UpgradeRequired, response.StatusCode);
        Assert.Equal("HTTP/2", Assert.Single(response.Headers.Upgrade).ToString());
        Assert.Equal(("13", "Request protocol 'HTTP/1.1' is not supported."), GrpcWireTests.GetStatus(response));
    }

    private static Task<TestServer> StartAsync(params HttpProtocols[] endpointProtocols) => TestServer.StartAsync(
        endpointProtocols,
        services => services.AddGrpcWire(),
        app =>
        {
            app.MapGrpcUnary<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", static (request, context) =>
                Task.FromResult(new EchoReply { Message = request.Message }));
            app.MapGet("/healthz", static (HttpContext context) => context.Request.Protocol);
        });
}
