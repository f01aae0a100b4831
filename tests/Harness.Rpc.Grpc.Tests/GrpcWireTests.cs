using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using Google.Protobuf;
using Grpc.Health.V1;
using Microsoft.Extensions.DependencyInjection;

namespace Harness.Rpc.Grpc.Tests;

public sealed class GrpcWireTests(GrpcServerFixture fixture) : IClassFixture<GrpcServerFixture>
{
    private const string Service = GrpcServerFixture.Service;
    private static readonly TimeSpan TestTimeout = TimeSpan.FromSeconds(10);

    private GrpcUnaryClient Client => fixture.Client;

    [Fact]
    public async Task UnaryCall_ReturnsTheHandlersResponse()
    {
        var reply = await Client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest { Message = "hello", ReplyPayloadSize = 10 });

        Assert.Equal("hello", reply.Message);
        Assert.Equal(10, reply.Payload.Length);
    }

    [Fact]
    public async Task UnaryCall_OnTheWire_IsHttp200WithOneFrameAndTrailerStatusOk()
    {
        using var response = await SendRawAsync("/harness.test.Echo/Echo", Frame(new EchoRequest { Message = "wire" }));
        var body = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(new Version(2, 0), response.Version);
        Assert.Equal("application/grpc", response.Content.Headers.ContentType?.MediaType);
        Assert.False(response.Headers.Contains("grpc-status"));
        Assert.Equal("0", Assert.Single(response.TrailingHeaders.GetValues("grpc-status")));
        Assert.Equal(0, body[0]);
        Assert.Equal(body.Length - 5, (int)BinaryPrimitives.ReadUInt32BigEndian(body.AsSpan(1)));
        Assert.Equal("wire", EchoReply.Parser.ParseFrom(body.AsSpan(5)).Message);
    }

    [Theory]
    [InlineData(GrpcStatusCode.InvalidArgument, "Name 'x' is 100% wrong: ü ✓")]
    [InlineData(GrpcStatusCode.NotFound, "")]
    [InlineData(GrpcStatusCode.Unavailable, "plain ascii")]
    public async Task HandlerRpcException_ReachesTheClientWithItsStatusAndDetail(GrpcStatusCode code, string detail)
    {
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<EchoRequest, EchoReply>(Service, "Fail", new EchoRequest { StatusCode = (int)code, Detail = detail }));

        Assert.Equal(code, ex.StatusCode);
        Assert.Equal(detail, ex.Detail);
        await AssertStillServesAsync();
    }

    [Fact]
    public async Task HandlerRpcException_IsATrailersOnlyResponseWithAPercentEncodedMessage()
    {
        var request = new EchoRequest { StatusCode = (int)GrpcStatusCode.InvalidArgument, Detail = "100% ü" };
        using var response = await SendRawAsync("/harness.test.Echo/Fail", Frame(request));
        var body = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(body);
        Assert.Equal("3", Assert.Single(response.Headers.GetValues("grpc-status")));
        Assert.Equal("100%25 %C3%BC", Assert.Single(response.Headers.GetValues("grpc-message")));
    }

    [Fact]
    public async Task HandlerException_IsUnknownWithoutTheExceptionsText()
    {
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<EchoRequest, EchoReply>(Service, "Throw", new EchoRequest()));

        Assert.Equal(GrpcStatusCode.Unknown, ex.StatusCode);
        Assert.Equal("Exception was thrown by handler.", ex.Detail);
        await AssertStillServesAsync();
    }

    [Theory]
    [InlineData(Service, "NoSuchMethod", "Method is unimplemented.")]
    [InlineData("harness.test.NoSuchService", "Echo", "Service is unimplemented.")]
    public async Task UnknownMethodOrService_IsUnimplemented(string service, string method, string detail)
    {
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<EchoRequest, EchoReply>(service, method, new EchoRequest()));

        Assert.Equal(GrpcStatusCode.Unimplemented, ex.StatusCode);
        Assert.Equal(detail, ex.Detail);
        await AssertStillServesAsync();
    }

    [Theory]
    [InlineData("GET", "application/grpc")]
    [InlineData("POST", "application/json")]
    public async Task NonGrpcRequestToAnUnknownPath_IsAPlain404(string method, string contentType)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), new Uri(fixture.Address, "/harness.test.Echo/NoSuchMethod"))
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent([]),
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue(contentType);
        using var response = await fixture.RawClient.SendAsync(request);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.False(response.Headers.Contains("grpc-status"));
    }

    [Theory]
    [InlineData(GrpcServerFixture.ServerMaxReceiveMessageSize + 1)]
    [InlineData(2 * 1024 * 1024)]
    public async Task RequestLargerThanServerLimit_IsResourceExhausted(int payloadSize)
    {
        // The larger size is more than Kestrel's stream window: the server answers while the client still sends.
        var request = new EchoRequest { Payload = ByteString.CopyFrom(new byte[payloadSize]) };

        var ex = await Assert.ThrowsAsync<RpcException>(() => Client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", request));

        Assert.Equal(GrpcStatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("Received message exceeds the maximum configured message size.", ex.Detail);
        await AssertStillServesAsync();
    }

    [Fact]
    public async Task ResponseLargerThanClientLimit_IsResourceExhausted()
    {
        using var client = new GrpcUnaryClient(fixture.Address, new GrpcClientOptions { MaxReceiveMessageSize = 1024 });

        var small = await client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest { ReplyPayloadSize = 500 });
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest { ReplyPayloadSize = 2048 }));

        Assert.Equal(500, small.Payload.Length);
        Assert.Equal(GrpcStatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("Received message exceeds the maximum configured message size.", ex.Detail);
    }

    [Fact]
    public async Task LargeResponse_StreamedThroughThePipe_ArrivesWhole()
    {
        var reply = await Client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest { Message = "big", ReplyPayloadSize = 1024 * 1024 });

        Assert.Equal(1024 * 1024, reply.Payload.Length);
    }

    public static TheoryData<string, byte[], string?, string, string> BadRequestBodies => new()
    {
        { "not protobuf", Frame(0, [0x0A, 0x05, 0x61]), null, "13", "Failed to deserialize request message." },
        { "empty body", [], null, "13", "Incomplete message." },
        { "truncated frame", [0, 0, 0, 0, 10, 1, 2, 3], null, "13", "Incomplete message." },
        { "two messages", [.. Frame(new EchoRequest { Message = "a" }), .. Frame(new EchoRequest { Message = "b" })], null, "13", "Additional data after the message received." },
        { "compressed, no encoding", Frame(1, [0x0A, 0x01, 0x61]), null, "13", "Request did not include grpc-encoding value with compressed message." },
        { "compressed, identity", Frame(1, [0x0A, 0x01, 0x61]), "identity", "13", "Request sent 'identity' grpc-encoding value with compressed message." },
        { "compressed, gzip", Frame(1, [0x0A, 0x01, 0x61]), "gzip", "12", "Unsupported grpc-encoding value 'gzip'. Supported encodings: identity" },
        { "bad flag", Frame(2, [0x0A, 0x01, 0x61]), null, "13", "Unexpected compressed flag value in message header." },
        { "declared length over limit", [0, 0x7F, 0xFF, 0xFF, 0xFF], null, "8", "Received message exceeds the maximum configured message size." },
    };

    [Theory]
    [MemberData(nameof(BadRequestBodies))]
    public async Task MalformedRequestBody_EndsTheCallWithAStatus(string caseName, byte[] body, string? grpcEncoding, string status, string message)
    {
        using var response = await SendRawAsync("/harness.test.Echo/Echo", body, configure: request =>
        {
            if (grpcEncoding is not null)
            {
                request.Headers.Add("grpc-encoding", grpcEncoding);
            }
        });

        Assert.True(HttpStatusCode.OK == response.StatusCode, caseName);
        Assert.Equal((status, message), GetStatus(response));
        await AssertStillServesAsync();
    }

    [Theory]
    [InlineData("application/json", "Content-Type 'application/json' is not supported.")]
    [InlineData("application/grpc-web", "Content-Type 'application/grpc-web' is not supported.")]
    [InlineData(null, "Content-Type is missing from the request.")]
    public async Task WrongContentType_Is415(string? contentType, string message)
    {
        using var response = await SendRawAsync("/harness.test.Echo/Echo", Frame(new EchoRequest()), contentType);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Equal(("13", message), GetStatus(response));
        await AssertStillServesAsync();
    }

    [Theory]
    [InlineData("application/grpc+proto")]
    [InlineData("application/grpc; charset=utf-8")]
    public async Task GrpcContentTypeVariants_AreAccepted(string contentType)
    {
        using var response = await SendRawAsync("/harness.test.Echo/Echo", Frame(new EchoRequest { Message = "variant" }), contentType);
        await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(("0", null), GetStatus(response));
    }

    [Fact]
    public async Task NonGrpcHttpStatus_IsMappedPerTheStatusMappingTable()
    {
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<EchoRequest, EchoReply>("plain.Service", "Unavailable", new EchoRequest()));

        Assert.Equal(GrpcStatusCode.Unavailable, ex.StatusCode);
        Assert.Equal("Bad gRPC response. HTTP status code: 503", ex.Detail);
    }

    [Fact]
    public async Task ClientDeadline_EndsTheCallWithDeadlineExceeded_AndCancelsTheHandler()
    {
        var id = "deadline-client";
        var stopwatch = Stopwatch.StartNew();

        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<EchoRequest, EchoReply>(Service, "Wait", new EchoRequest { Message = id }, DateTime.UtcNow.AddMilliseconds(300)));

        Assert.Equal(GrpcStatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.InRange(stopwatch.Elapsed, TimeSpan.FromMilliseconds(250), TestTimeout);
        await WaitCanceled(id).WaitAsync(TestTimeout);
        await AssertStillServesAsync();
    }

    [Fact]
    public async Task ServerDeadline_FromGrpcTimeout_SendsDeadlineExceeded_AndCancelsTheHandler()
    {
        var id = "deadline-server";

        // A raw client enforces no deadline of its own, so the status can only come from the server.
        using var response = await SendRawAsync("/harness.test.Echo/Wait", Frame(new EchoRequest { Message = id }), configure: request =>
            request.Headers.Add("grpc-timeout", "200m"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(("4", "Deadline Exceeded"), GetStatus(response));
        await WaitCanceled(id).WaitAsync(TestTimeout);
        await AssertStillServesAsync();
    }

    [Fact]
    public async Task PassedDeadline_FailsWithoutSending()
    {
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest(), DateTime.UtcNow.AddSeconds(-1)));

        Assert.Equal(GrpcStatusCode.DeadlineExceeded, ex.StatusCode);
    }

    [Fact]
    public async Task ServerCallContext_CarriesTheMethodAndTheClientsDeadline()
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);

        var withDeadline = await Client.CallAsync<EchoRequest, EchoReply>(Service, "Context", new EchoRequest(), deadline);
        var withoutDeadline = await Client.CallAsync<EchoRequest, EchoReply>(Service, "Context", new EchoRequest());

        Assert.Equal("/harness.test.Echo/Context", withDeadline.Message);
        Assert.InRange(new DateTime(withDeadline.DeadlineTicks, DateTimeKind.Utc), deadline.AddSeconds(-2), deadline.AddSeconds(1));
        Assert.Equal(DateTime.MaxValue.Ticks, withoutDeadline.DeadlineTicks);
    }

    [Fact]
    public async Task Cancellation_EndsTheCallWithCancelled_AndCancelsTheHandler()
    {
        var id = "cancel";
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));

        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<EchoRequest, EchoReply>(Service, "Wait", new EchoRequest { Message = id }, cancellationToken: cts.Token));

        Assert.Equal(GrpcStatusCode.Cancelled, ex.StatusCode);
        Assert.Equal("Call canceled by the client.", ex.Detail);
        await WaitCanceled(id).WaitAsync(TestTimeout);
        await AssertStillServesAsync();
    }

    [Fact]
    public async Task Interceptors_RunInRegistrationOrder_AndOneCanMoveTheHandlerToAnotherThread()
    {
        var id = "hop-" + Guid.NewGuid().ToString("N");

        var reply = await Client.CallAsync<EchoRequest, EchoReply>(Service, "Hop", new EchoRequest { Message = id }).WaitAsync(TestTimeout);

        Assert.Equal(id, reply.Message);
        Assert.Equal(GrpcServerFixture.HopThreadName, reply.ThreadName);
        Assert.Equal(
            ["outer:before", "inner:before", "hop:before", "handler", "hop:after", "inner:after", "outer:after"],
            fixture.Events[id].ToArray());
    }

    [Fact]
    public async Task Health_ReportsServingForTheServer_NotFoundForUnknownServices_AndSetStatus()
    {
        var health = fixture.Services.GetRequiredService<GrpcHealthService>();
        health.SetStatus("harness.test.Down", HealthCheckResponse.Types.ServingStatus.NotServing);

        var server = await Client.CallAsync<HealthCheckRequest, HealthCheckResponse>("grpc.health.v1.Health", "Check", new HealthCheckRequest());
        var down = await Client.CallAsync<HealthCheckRequest, HealthCheckResponse>("grpc.health.v1.Health", "Check", new HealthCheckRequest { Service = "harness.test.Down" });
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            Client.CallAsync<HealthCheckRequest, HealthCheckResponse>("grpc.health.v1.Health", "Check", new HealthCheckRequest { Service = "harness.test.Unknown" }));

        Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, server.Status);
        Assert.Equal(HealthCheckResponse.Types.ServingStatus.NotServing, down.Status);
        Assert.Equal(GrpcStatusCode.NotFound, ex.StatusCode);
    }

    [Fact]
    public async Task TwoHundredConcurrentCallsOverOneClient_AllSucceed()
    {
        using var client = new GrpcUnaryClient(fixture.Address);

        var calls = Enumerable.Range(0, 200)
            .Select(i => client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest { Message = "call-" + i, ReplyPayloadSize = 100 }))
            .ToArray();
        var replies = await Task.WhenAll(calls).WaitAsync(TestTimeout);

        Assert.Equal(Enumerable.Range(0, 200).Select(i => "call-" + i), replies.Select(r => r.Message));
        Assert.All(replies, reply => Assert.Equal(100, reply.Payload.Length));
    }

    [Fact]
    public async Task ConnectionRefused_IsUnavailable()
    {
        // Bind and release an ephemeral port so nothing listens on it.
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        using var client = new GrpcUnaryClient(new Uri($"http://127.0.0.1:{port}"));

        var ex = await Assert.ThrowsAsync<RpcException>(() => client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest()));

        Assert.Equal(GrpcStatusCode.Unavailable, ex.StatusCode);
        Assert.StartsWith("Error starting gRPC call. HttpRequestException:", ex.Detail);
    }

    internal static byte[] Frame(IMessage message)
    {
        var payload = message.ToByteArray();
        return Frame(0, payload);
    }

    internal static byte[] Frame(byte flag, byte[] payload)
    {
        var frame = new byte[5 + payload.Length];
        frame[0] = flag;
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(1), (uint)payload.Length);
        payload.CopyTo(frame, 5);
        return frame;
    }

    /// <summary>The status from the headers (trailers-only response) or from the trailers.</summary>
    internal static (string? Status, string? Message) GetStatus(HttpResponseMessage response)
    {
        var headers = response.Headers.Contains("grpc-status") ? (HttpHeaders)response.Headers : response.TrailingHeaders;
        var status = headers.TryGetValues("grpc-status", out var statuses) ? statuses.Single() : null;
        var message = headers.TryGetValues("grpc-message", out var messages) ? messages.Single() : null;
        return (status, message);
    }

    private Task WaitCanceled(string id) =>
        fixture.WaitCanceled.GetOrAdd(id, _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;

    private async Task<HttpResponseMessage> SendRawAsync(string path, byte[] body, string? contentType = "application/grpc", Action<HttpRequestMessage>? configure = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, new Uri(fixture.Address, path))
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent(body),
        };
        request.Content.Headers.ContentType = contentType is null ? null : MediaTypeHeaderValue.Parse(contentType);
        request.Headers.TE.Add(new TransferCodingWithQualityHeaderValue("trailers"));
        configure?.Invoke(request);
        var response = await fixture.RawClient.SendAsync(request).WaitAsync(TestTimeout);
        return response;
    }

    private async Task AssertStillServesAsync()
    {
        var reply = await Client.CallAsync<EchoRequest, EchoReply>(Service, "Echo", new EchoRequest { Message = "still serving" }).WaitAsync(TestTimeout);
        Assert.Equal("still serving", reply.Message);
    }
}
