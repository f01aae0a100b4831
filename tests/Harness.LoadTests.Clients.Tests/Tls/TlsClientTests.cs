using System.Diagnostics;
using Google.Protobuf;
using Harness.Contracts;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Soap;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Harness.LoadTests.Clients.Tests.Tls;

/// <summary>
/// Every client (the lean gRPC client, Grpc.Net.Client, the lean SOAP client, the WCF client) against Kestrel over
/// TLS with a CA made for the test: trusted through <c>--cacert</c>, refused without it (a counted failure with a named
/// status), accepted with <c>--insecure</c>; a server that requires a client certificate takes <c>--cert</c>/<c>--key</c>
/// and refuses a client without one; a server that never answers the handshake fails the call within the connect bound.
/// </summary>
public sealed class TlsClientTests : IDisposable
{
    public const string LeanGrpc = "grpc-lean", NetGrpc = "grpc-grpcnet", LeanSoap = "soap-lean", Wcf = "soap-wcf";

    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    private readonly TestCertificates _certificates = TestCertificates.Create();

    public static TheoryData<string> Clients => [LeanGrpc, NetGrpc, LeanSoap, Wcf];

    public void Dispose() => _certificates.Dispose();

    [Theory]
    [MemberData(nameof(Clients))]
    public async Task CaCert_TrustsTheServer_AndTheCallsSucceed(string client)
    {
        // Arrange
        await using var server = await StartAsync(client);
        using var harness = New(client, server.Address, ClientTls.Load(_certificates.CaFile, null, null, insecure: false));

        // Act
        var replies = await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => harness.ComputeAsync(1))).WaitAsync(Bound);

        // Assert
        Assert.All(replies, r => Assert.Equal(89, r.Result));
    }

    [Theory]
    [MemberData(nameof(Clients))]
    public async Task WithoutCaCert_TheHandshakeFails_AsAConnectionFailureWithANamedStatus(string client)
    {
        // Arrange: the system's trust, which does not hold the test CA.
        await using var server = await StartAsync(client);
        using var harness = New(client, server.Address, ClientTls.System);

        // Act
        var failure = await Record.ExceptionAsync(() => harness.ComputeAsync(1).WaitAsync(Bound));

        // Assert
        Assert.NotNull(failure);
        Assert.Equal("tls-handshake", FailureStatus.Of(failure));
        Assert.True(FailureStatus.IsConnectionFailure(failure), failure.ToString());
    }

    [Theory]
    [MemberData(nameof(Clients))]
    public async Task Insecure_SkipsVerification_AndTheCallsSucceed(string client)
    {
        // Arrange
        await using var server = await StartAsync(client);
        using var harness = New(client, server.Address, ClientTls.Load(null, null, null, insecure: true));

        // Act
        var reply = await harness.ComputeAsync(1).WaitAsync(Bound);

        // Assert
        Assert.Equal(89, reply.Result);
    }

    [Theory]
    [MemberData(nameof(Clients))]
    public async Task Mtls_TheClientCertificateIsAccepted_AndNoneIsRefused(string client)
    {
        // Arrange
        await using var server = await StartAsync(client, requireClientCertificate: true);
        using var withCertificate = New(client, server.Address, ClientTls.Load(_certificates.CaFile, _certificates.ClientCertFile, _certificates.ClientKeyFile, insecure: false));
        using var without = New(client, server.Address, ClientTls.Load(_certificates.CaFile, null, null, insecure: false));

        // Act
        var reply = await withCertificate.ComputeAsync(1).WaitAsync(Bound);
        var refused = await Record.ExceptionAsync(() => without.ComputeAsync(1).WaitAsync(Bound));

        // Assert
        Assert.Equal(89, reply.Result);
        Assert.NotNull(refused);
        Assert.IsNotType<TimeoutException>(refused);
    }

    [Theory]
    [MemberData(nameof(Clients))]
    public async Task AServerThatNeverAnswersTheHandshake_FailsTheCallWithinTheConnectBound(string client)
    {
        // Arrange: a 1 s call timeout makes the connect bound 1 s (CallTimeouts.ConnectTimeout).
        await using var silent = new SilentServer();
        using var harness = New(
            client, new Uri($"https://127.0.0.1:{silent.Port}"), ClientTls.Load(_certificates.CaFile, null, null, insecure: false), TimeSpan.FromSeconds(1));
        var clock = Stopwatch.StartNew();

        // Act
        var failure = await Record.ExceptionAsync(() => harness.ComputeAsync(1).WaitAsync(Bound));

        // Assert: the call's own failure (WCF's is its send timeout's TimeoutException), well before the test's 10 s bound.
        Assert.NotNull(failure);
        Assert.Contains(FailureStatus.Of(failure), new[] { "timeout", "CANCELLED", "DEADLINE_EXCEEDED" });
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(6), $"failed after {clock.Elapsed}");
        if (harness is Grpc.Http2.Http2GrpcClient lean)
        {
            // The connection gave up its handshake and left the pool.
            var left = Stopwatch.StartNew();
            while (lean.Connections > 0 && left.Elapsed < TimeSpan.FromSeconds(6))
            {
                await Task.Delay(50);
            }

            Assert.Equal(0, lean.Connections);
        }
    }

    [Fact]
    public async Task LeanGrpc_AServerThatDoesNotSelectH2_FailsSayingSo()
    {
        // Arrange: HTTPS with HTTP/1.1 only, so ALPN selects http/1.1 or nothing.
        await using var server = await TlsTestServer.StartAsync(_certificates, HttpProtocols.Http1);
        using var harness = New(LeanGrpc, server.Address, ClientTls.Load(_certificates.CaFile, null, null, insecure: false));

        // Act
        var failure = await Record.ExceptionAsync(() => harness.ComputeAsync(1).WaitAsync(Bound));

        // Assert
        Assert.NotNull(failure);
        Assert.Equal("tls-handshake", FailureStatus.Of(failure));
        // Kestrel refuses the handshake (no common ALPN protocol); a server that went on without ALPN is told apart.
        Assert.Matches("does not select h2|did not select HTTP/2", failure!.Message);
    }

    [Fact]
    public async Task CallClients_TakeTheSameTls_ForAGrpcAndASoapCall()
    {
        // Arrange: --call's clients (Grpc.Net.Client for gRPC, the lean SOAP transport), mTLS with the test CA.
        var tls = ClientTls.Load(_certificates.CaFile, _certificates.ClientCertFile, _certificates.ClientKeyFile, insecure: false);
        await using var grpc = await TlsTestServer.StartAsync(_certificates, HttpProtocols.Http2, requireClientCertificate: true);
        await using var soap = await TlsTestServer.StartAsync(_certificates, HttpProtocols.Http1, requireClientCertificate: true);
        using var grpcCall = new Grpc.GrpcCallClient(grpc.Address, HarnessContract.GrpcService, HarnessContract.Compute, [], tls: tls);
        using var soapCall = new SoapCallClient(new Uri(soap.Address, HarnessContract.SoapPath), "", SoapVersion.Soap11, [], tls: tls);

        // Act
        var grpcReply = await grpcCall.SendAsync(new Harness.Contracts.Grpc.ComputeRequest { Iterations = 1 }.ToByteArray(), default).WaitAsync(Bound);
        var soapReply = await soapCall.SendAsync("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body/></s:Envelope>"u8.ToArray(), default).WaitAsync(Bound);

        // Assert
        Assert.Equal(89, Harness.Contracts.Grpc.ComputeReply.Parser.ParseFrom(grpcReply.Body).Result);
        Assert.Contains("<Result>89</Result>", System.Text.Encoding.UTF8.GetString(soapReply.Body), StringComparison.Ordinal);
    }

    [Fact]
    public void Load_RefusesBadInput_NamingTheOptionAndTheFile()
    {
        var missing = Path.Combine(_certificates.Folder, "missing.pem");
        var notPem = Path.Combine(_certificates.Folder, "not.pem");
        File.WriteAllText(notPem, "no certificate here");

        Assert.Contains("--cacert", Assert.Throws<CallSetupException>(() => ClientTls.Load(missing, null, null, false)).Message, StringComparison.Ordinal);
        Assert.Contains("holds no PEM certificate", Assert.Throws<CallSetupException>(() => ClientTls.Load(notPem, null, null, false)).Message, StringComparison.Ordinal);
        Assert.Contains("--cert needs --key", Assert.Throws<CallSetupException>(() => ClientTls.Load(null, _certificates.ClientCertFile, null, false)).Message, StringComparison.Ordinal);
        Assert.Contains("--key goes with --cert", Assert.Throws<CallSetupException>(() => ClientTls.Load(null, null, _certificates.ClientKeyFile, false)).Message, StringComparison.Ordinal);
        Assert.Contains(notPem, Assert.Throws<CallSetupException>(() => ClientTls.Load(null, _certificates.ClientCertFile, notPem, false)).Message, StringComparison.Ordinal);
    }

    private static IHarnessClient New(string client, Uri address, ClientTls tls, TimeSpan? timeout = null) => client is LeanSoap or Wcf
        ? HarnessClients.Soap(address, client == Wcf ? SoapClients.Wcf : SoapClients.Lean, timeout, tls: tls)
        : HarnessClients.Grpc(address, client == LeanGrpc ? GrpcClients.Lean : GrpcClients.GrpcNet, timeout, tls: tls);

    private Task<TlsTestServer> StartAsync(string client, bool requireClientCertificate = false) =>
        TlsTestServer.StartAsync(_certificates, client is LeanSoap or Wcf ? HttpProtocols.Http1 : HttpProtocols.Http2, requireClientCertificate);
}
