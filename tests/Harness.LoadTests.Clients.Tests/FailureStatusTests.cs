using System.Net.Sockets;
using System.ServiceModel;
using Grpc.Core;
using Harness.Contracts;
using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>What the real clients throw when nothing listens, and the name each failure is counted under.</summary>
public sealed class FailureStatusTests
{
    [Fact]
    public void ACallsReplyThatFailed_IsCountedUnderItsOwnStatus_AndIsNoConnectionFailure()
    {
        var failed = new CallFailedException("soap-fault-Client", "soap:Client: divisor is 0");

        Assert.Equal("soap-fault-Client", FailureStatus.Of(failed));
        Assert.False(FailureStatus.IsConnectionFailure(failed));
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
        Assert.Equal("UNAVAILABLE", FailureStatus.Of(ex));
    }
}
