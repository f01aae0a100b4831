namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// <c>harness run --call</c> against a gRPC service the project did not write, in another language (Node.js,
/// @grpc/grpc-js: tests/Assets/grpc-js-service), over TLS with a CA made for the test: trusted with <c>--cacert</c>,
/// by reflection and by <c>--proto</c>, its unary method and its three streaming ones; refused without it; accepted
/// with <c>--insecure</c>; and mTLS. The service
/// refuses (INVALID_ARGUMENT) a request whose snake_case fields are empty, so a field the harness mapped to the wrong
/// name fails every call.
/// </summary>
[Trait("Category", "EndToEnd")]
public sealed class GrpcJsTlsCallTests(OrdersServices services) : IClassFixture<OrdersServices>
{
    private const string GetOrder = "shop.v1.Orders/GetOrder";
    private const string Series = "grpc-get-order-external";
    private const string ProtoNames = """{"order_id":"o-{{seq}}","customer_name":"x"}""";

    [Fact]
    public async Task ByReflection_WithCacert_LoadsGetOrder_WithTheProtoFieldNames()
    {
        // Act
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={services.Tls.Address}", "--call", GetOrder, "--cacert", services.Tls.CaFile, "--data", ProtoNames, .. CallRuns.Short]);

        // Assert
        CallRuns.AssertServedWithoutErrors(run, Series);
        Assert.Contains("grpc.reflection.v1", run.Series!.Parameters["descriptors"], StringComparison.Ordinal);
    }

    [Fact]
    public async Task ByProto_WithCacert_LoadsGetOrder_OfAServerWithoutReflection_WithTheJsonFieldNames()
    {
        // Act: orderId and customerName, the JSON names of order_id and customer_name.
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={services.TlsWithoutReflection.Address}", "--call", GetOrder, "--cacert", services.TlsWithoutReflection.CaFile,
             "--proto", GrpcJsService.ProtoFile, "--data", """{"orderId":"o-{{seq}}","customerName":"x"}""", "--show-reply", .. CallRuns.Short]);

        // Assert: the reply's snake_case fields, as the service filled them.
        CallRuns.AssertServedWithoutErrors(run, Series);
        Assert.Equal($"--proto {GrpcJsService.ProtoFile}", run.Series!.Parameters["descriptors"]);
        Assert.Contains("customer_name: \"x\"", run.Output, StringComparison.Ordinal);
        Assert.Contains("unit_price_cents: 1250", run.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("ListOrders", """{"customer_name":"c-{{user}}","item_count":25}""", 1, 25)]
    [InlineData("UploadOrders", """[{"order_id":"u-{{seq}}","line_items":[{"sku":"a","unit_price_cents":100}]},{"order_id":"v","line_items":[{"sku":"b"}]}]""", 2, 1)]
    [InlineData("TrackOrders", """[{"order_id":"t-{{seq}}"},{"order_id":"t2"},{"order_id":"t3"}]""", 3, 3)]
    public async Task EachStreamingMethod_OverTls_WithProtoFieldNames_IsLoadedWithoutErrors_AndItsMessagesReported(
        string method, string data, int sentPerCall, int receivedPerCall)
    {
        // Act: the service refuses an empty order_id, customer_name or sku, and an item_count out of 1..10,000.
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={services.Tls.Address}", "--call", $"shop.v1.Orders/{method}", "--cacert", services.Tls.CaFile, "--data", data,
             .. CallRuns.Short]);

        // Assert: every call sent and read its messages, and the summary gives the per-message figures.
        var series = $"grpc-{Kebab(method)}-external";
        CallRuns.AssertServedWithoutErrors(run, series);
        var streams = CallRuns.AssertStreamsRecorded(run);
        Assert.Equal((sentPerCall * streams.Calls, receivedPerCall * streams.Calls), (streams.MessagesSent, streams.MessagesReceived));
        Assert.Equal((receivedPerCall - 1) * streams.Calls, streams.MessageGap.TotalCount);
        var line = Assert.Single(run.Output.Split('\n'), l => l.TrimStart().StartsWith($"{series}: ", StringComparison.Ordinal) && l.Contains(" calls · ", StringComparison.Ordinal));
        Assert.Contains("first message p50", line, StringComparison.Ordinal);
        Assert.Contains(receivedPerCall > 1 ? "message gap p50" : "no message gap", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnEmptyRequiredField_FailsEveryCall_AsInvalidArgument()
    {
        // The proof that the service checks what it is sent: the success of the other tests means something.
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={services.Tls.Address}", "--call", GetOrder, "--cacert", services.Tls.CaFile,
             "--data", """{"order_id":"","customer_name":"x"}""", .. CallRuns.Short]);

        Assert.True(run.ExitCode == 0, run.Output);
        AssertEveryCallFailed(run, "INVALID_ARGUMENT");
        Assert.Contains(run.Events, e => e.Message.Contains("order_id is empty", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WithoutCacert_TheReflectionRead_IsRefused_NamingTheCertificateChain_AndTheOptionsThatTrustIt()
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync(
            "--target", $"grpc={services.Tls.Address}", "--call", GetOrder, "--data", ProtoNames));

        Assert.Contains("the TLS handshake with", line, StringComparison.Ordinal);
        Assert.Contains("trust its certificate with --cacert FILE (or --insecure)", line, StringComparison.Ordinal);
        Assert.DoesNotContain("--proto", line, StringComparison.Ordinal);
        Assert.Contains("The remote certificate is invalid because of errors in the certificate chain", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WithoutCacert_ByProto_EveryCallFails_AsTlsHandshake()
    {
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={services.Tls.Address}", "--call", GetOrder, "--proto", GrpcJsService.ProtoFile, "--data", ProtoNames, .. CallRuns.Short]);

        Assert.True(run.ExitCode == 0, run.Output);
        AssertEveryCallFailed(run, "tls-handshake");
    }

    [Fact]
    public async Task Insecure_AcceptsTheUntrustedCertificate_AndLoads()
    {
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={services.Tls.Address}", "--call", GetOrder, "--insecure", "--data", ProtoNames, .. CallRuns.Short]);

        CallRuns.AssertServedWithoutErrors(run, Series);
    }

    [Fact]
    public async Task MutualTls_WithTheClientCertificate_Loads()
    {
        var mtls = services.MutualTls;

        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={mtls.Address}", "--call", GetOrder, "--cacert", mtls.CaFile, "--cert", mtls.ClientCertFile, "--key", mtls.ClientKeyFile,
             "--data", ProtoNames, .. CallRuns.Short]);

        CallRuns.AssertServedWithoutErrors(run, Series);
    }

    [Fact]
    public async Task MutualTls_WithoutAClientCertificate_EveryCallFails_AsTheServerClosesTheConnection()
    {
        // Act: --proto, so the refusal shows in the load rather than in the reflection read before it.
        var mtls = services.MutualTls;
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={mtls.Address}", "--call", GetOrder, "--cacert", mtls.CaFile, "--proto", GrpcJsService.ProtoFile,
             "--data", ProtoNames, .. CallRuns.Short]);

        // Assert: under TLS 1.3 the server checks the certificate after the client's part of the handshake, so the
        // refusal is a connection it closes (UNAVAILABLE); one racing the HTTP/2 preface may end as INTERNAL.
        Assert.True(run.ExitCode == 0, run.Output);
        AssertEveryCallFailed(run, "UNAVAILABLE", "INTERNAL");
        Assert.Contains(run.Seconds.SelectMany(s => s.StatusCounts), c => c.Key == "UNAVAILABLE");
    }

    /// <summary>Calls were made, every one failed, and each under one of <paramref name="statuses"/>.</summary>
    private static void AssertEveryCallFailed(CallRun run, params string[] statuses)
    {
        Assert.NotNull(run.Series);
        var requests = run.Seconds.Sum(s => s.Requests);
        Assert.True(requests > 0, run.Output);
        Assert.Equal(requests, run.Seconds.Sum(s => s.Failures));
        Assert.All(run.Seconds.SelectMany(s => s.StatusCounts), c => Assert.Contains(c.Key, statuses));
    }

    private static string Kebab(string method) => string.Concat(method.Select((c, i) => char.IsUpper(c) ? (i > 0 ? "-" : "") + char.ToLowerInvariant(c) : c.ToString()));
}
