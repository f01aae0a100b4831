using System.Diagnostics;
using System.Text;
using Grpc.Core;
using Harness.Contracts;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Grpc.Http2;
using Harness.LoadTests.Clients.Soap;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>
/// <c>--timeout</c> in every client: against a server that accepts and never answers, each call fails when its timeout
/// has passed, under the kind FailureStatus gives it (gRPC's DEADLINE_EXCEEDED, SOAP's timeout).
/// </summary>
public sealed class CallTimeoutTests : IAsyncLifetime
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(300);

    // A call that has not failed by then has no deadline at all.
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(15);

    private readonly SilentServer _server = new();

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await _server.DisposeAsync();

    public static TheoryData<string> HarnessClientChoices => ["grpc lean", "grpc grpcnet", "soap lean", "soap wcf"];

    [Theory]
    [MemberData(nameof(HarnessClientChoices))]
    public async Task HarnessClient_AgainstASilentServer_GivesUpAtTheTimeout(string choice)
    {
        // Arrange
        var (stack, client) = (choice.Split(' ')[0], choice.Split(' ')[1]);
        using var harnessClient = stack == "soap"
            ? HarnessClients.Soap(_server.Address, client, Timeout)
            : HarnessClients.Grpc(_server.Address, client, Timeout);

        // Act
        var (failure, elapsed) = await FailureOf(ct => harnessClient.ComputeAsync(1, ct));

        // Assert
        Assert.Equal(stack == "grpc" ? "DEADLINE_EXCEEDED" : "timeout", FailureStatus.Of(failure));
        Assert.False(FailureStatus.IsConnectionFailure(failure));
        Assert.True(elapsed >= Timeout - TimeSpan.FromMilliseconds(20), $"given up after {elapsed}");
    }

    [Fact]
    public async Task GrpcCallClient_AgainstASilentServer_GivesUpAtTheTimeout()
    {
        using var client = new GrpcCallClient(_server.Address, HarnessContract.GrpcService, HarnessContract.Compute, [], Timeout);

        var (failure, _) = await FailureOf(ct => client.SendAsync([], ct));

        Assert.Equal(StatusCode.DeadlineExceeded, Assert.IsType<RpcException>(failure).StatusCode);
        Assert.Equal("DEADLINE_EXCEEDED", FailureStatus.Of(failure));
    }

    [Theory]
    [InlineData("http")]
    [InlineData("https")]
    public async Task SoapCallClient_AgainstASilentServer_GivesUpAtTheTimeout(string scheme)
    {
        // Over https the handshake is what never ends: HttpClient's own timeout.
        using var client = new SoapCallClient(new Uri($"{scheme}://127.0.0.1:{_server.Port}/service"), "urn:op", SoapVersion.Soap11, [], Timeout);

        var (failure, _) = await FailureOf(ct => client.SendAsync("<x/>"u8.ToArray(), ct));

        Assert.Equal("timeout", FailureStatus.Of(failure));
    }

    [Fact]
    public async Task LeanGrpcClient_ALaterCallOnTheSameConnection_HasItsOwnDeadline()
    {
        using var client = new Http2GrpcClient(_server.Address, timeout: Timeout);
        var first = FailureOf(ct => client.ComputeAsync(1, ct));
        await Task.Delay(Timeout / 2);

        var (second, _) = await FailureOf(ct => client.ComputeAsync(1, ct));

        Assert.Equal("DEADLINE_EXCEEDED", FailureStatus.Of((await first).Failure));
        Assert.Equal("DEADLINE_EXCEEDED", FailureStatus.Of(second));
        Assert.Equal(1, client.Connections);
    }

    [Theory]
    [InlineData(3000, "3000m")]
    [InlineData(1, "1m")]
    [InlineData(0.4, "1m")]
    [InlineData(3_600_000, "3600000m")]
    public void GrpcTimeoutHeader_IsWholeMillisecondsRoundedUp(double milliseconds, string expected) =>
        Assert.Equal(expected, CallTimeouts.GrpcTimeoutHeader(TimeSpan.FromMilliseconds(milliseconds)));

    [Fact]
    public void GrpcTimeoutHeader_BeyondEightDigitsOfMilliseconds_TakesSeconds() =>
        Assert.Equal("100000S", CallTimeouts.GrpcTimeoutHeader(TimeSpan.FromSeconds(100_000)));

    [Fact]
    public void LeanGrpcClientsHeaders_CarryTheTimeout_OnlyWhenGiven()
    {
        var withTimeout = Decode(RequestHeaders.Encode("/harness.v1.HarnessService/Compute", "127.0.0.1:5082", TimeSpan.FromSeconds(3)));
        var without = Decode(RequestHeaders.Encode("/harness.v1.HarnessService/Compute", "127.0.0.1:5082"));

        Assert.Contains("grpc-timeout: 3000m", withTimeout);
        Assert.Equal(without, withTimeout.Where(h => !h.StartsWith("grpc-timeout", StringComparison.Ordinal)));
        Assert.DoesNotContain(without, h => h.StartsWith("grpc-timeout", StringComparison.Ordinal));
    }

    private static List<string> Decode(byte[] block)
    {
        var sink = new Fields();
        new HpackDecoder().Decode(block, sink);
        return sink.All;
    }

    /// <summary>What the call failed with, and when; a call still running after <see cref="Bound"/> fails the test.</summary>
    private static async Task<(Exception Failure, TimeSpan Elapsed)> FailureOf(Func<CancellationToken, Task> call)
    {
        var clock = Stopwatch.StartNew();
        var task = call(CancellationToken.None);
        var finished = await Task.WhenAny(task, Task.Delay(Bound));
        var elapsed = clock.Elapsed;
        Assert.True(finished == task, $"still running after {Bound}: the call has no deadline");
        var failure = await Record.ExceptionAsync(() => task);
        Assert.NotNull(failure);
        return (failure, elapsed);
    }

    private sealed class Fields : IHeaderSink
    {
        public List<string> All { get; } = [];

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) =>
            All.Add($"{Encoding.ASCII.GetString(name)}: {Encoding.ASCII.GetString(value)}");
    }
}
