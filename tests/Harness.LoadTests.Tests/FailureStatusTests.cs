using System.Net.Sockets;
using System.ServiceModel;
using Grpc.Core;
using Harness.Contracts;
using Harness.LoadTests.Calls;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Tests;

/// <summary>What the real clients throw when nothing listens, and the name each failure is counted under.</summary>
public sealed class FailureStatusTests
{
    [Fact]
    public void ACallsReplyThatFailed_IsCountedUnderItsOwnStatus_AndIsNoConnectionFailure()
    {
        var failed = new CallFailedException("soap-fault-Client", "soap:Client: divisor is 0");

        Assert.Equal("soap-fault-Client", FailureStatus.Of(failed));
        Assert.False(FailureStatus.Fail(failed).IsConnectionFailure);
    }

    [Theory]
    [InlineData("soap", "connection")]
    [InlineData("grpc", "UNAVAILABLE")]
    public async Task CallToAClosedPort_IsCountedUnderItsStacksName(string stack, string expected)
    {
        // Arrange: a loopback port that was free a moment ago and has no listener now.
        var address = new Uri($"http://127.0.0.1:{LoopbackPorts.Free(1)[0]}");
        using IHarnessClient client = stack == "soap" ? new HarnessSoapClient(address, TimeSpan.FromSeconds(10)) : new HarnessGrpcClient(address);

        // Act
        var ex = await Record.ExceptionAsync(() => client.ComputeAsync(1));

        // Assert
        Assert.NotNull(ex);
        Assert.Equal(expected, FailureStatus.Of(ex));
        Assert.True(FailureStatus.IsConnectionFailure(ex), $"{ex.GetType().Name}: {ex.Message}");
        Assert.True(FailureStatus.Fail(ex).IsConnectionFailure);
    }

    [Fact]
    public void StatusTheServerSent_IsNotAConnectionFailure()
    {
        // The target answered: backing off would hide how often it refuses.
        Exception[] answered =
        [
            new RpcException(new Status(StatusCode.Unavailable, "shutting down")),
            new RpcException(new Status(StatusCode.ResourceExhausted, "queue full")),
            new FaultException("bad argument"),
            new TimeoutException(),
        ];

        Assert.All(answered, ex => Assert.False(FailureStatus.IsConnectionFailure(ex), ex.Message));
    }

    [Fact]
    public void UnavailableOverARefusedSocket_IsAConnectionFailure()
    {
        var refused = new HttpRequestException(HttpRequestError.ConnectionError, "Connection refused", new SocketException((int)SocketError.ConnectionRefused));
        var ex = new RpcException(new Status(StatusCode.Unavailable, "Error starting gRPC call.", refused));

        Assert.True(FailureStatus.IsConnectionFailure(ex));
        Assert.Equal("UNAVAILABLE", FailureStatus.Fail(ex).StatusCode);
    }

    [Fact]
    public void FirstFailureOfEachStatus_IsNotedOnce_WithTheCauseGrpcKeepsInItsStatus()
    {
        var notes = new List<string>();
        var first = new FirstFailures(notes.Add);
        var refused = new HttpRequestException(HttpRequestError.ConnectionError, "Connection refused", new SocketException((int)SocketError.ConnectionRefused));
        var unavailable = new RpcException(new Status(StatusCode.Unavailable, "Error starting gRPC call.", refused));

        first.Note("UNAVAILABLE", unavailable);
        first.Note("UNAVAILABLE", new RpcException(new Status(StatusCode.Unavailable, "a later one")));
        first.Note("timeout", new TimeoutException("slow"));

        Assert.Equal(2, notes.Count);
        Assert.StartsWith("first UNAVAILABLE: RpcException: ", notes[0], StringComparison.Ordinal);
        Assert.Contains("← HttpRequestException: Connection refused ← SocketException: ", notes[0], StringComparison.Ordinal);
        Assert.Equal("first timeout: TimeoutException: slow", notes[1]);
    }
}
