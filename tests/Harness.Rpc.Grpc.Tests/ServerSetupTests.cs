using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Harness.Rpc.Grpc.Tests;

/// <summary>Options and mapping rules that need a server of their own.</summary>
public sealed class ServerSetupTests
{
    [Fact]
    public async Task ResponseLargerThanMaxSendMessageSize_IsResourceExhausted()
    {
        await using var server = await TestServer.StartAsync(
            HttpProtocols.Http2,
            services => services.AddGrpcWire(options => options.MaxSendMessageSize = 100),
            app => app.MapGrpcUnary<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", static (request, context) =>
                Task.FromResult(new EchoReply { Payload = ByteString.CopyFrom(new byte[request.ReplyPayloadSize]) })));
        using var client = new GrpcUnaryClient(server.Address);

        var small = await client.CallAsync<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", new EchoRequest { ReplyPayloadSize = 50 });
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            client.CallAsync<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", new EchoRequest { ReplyPayloadSize = 200 }));

        Assert.Equal(50, small.Payload.Length);
        Assert.Equal(GrpcStatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("Sending message exceeds the maximum configured message size.", ex.Detail);
    }

    [Fact]
    public async Task MapGrpcUnary_WithoutAddGrpcWire_Throws()
    {
        var ex = await Assert.ThrowsAsync<InvalidOperationException>(() => TestServer.StartAsync(
            HttpProtocols.Http2,
            services => { },
            app => app.MapGrpcHealth()));

        Assert.Contains("AddGrpcWire", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MapGrpcUnary_SameMethodTwice_Throws()
    {
        static Task<EchoReply> Handler(EchoRequest request, ServerCallContext context) => Task.FromResult(new EchoReply());

        var ex = await Assert.ThrowsAsync<InvalidOperationException>(() => TestServer.StartAsync(
            HttpProtocols.Http2,
            services => services.AddGrpcWire(),
            app =>
            {
                app.MapGrpcUnary<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", Handler);
                app.MapGrpcUnary<EchoRequest, EchoReply>(GrpcServerFixture.Service, "Echo", Handler);
            }));

        Assert.Equal("The gRPC method '/harness.test.Echo/Echo' is already mapped.", ex.Message);
    }
}
