using System.Net.Sockets;
using Grpc.Core;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Tests;

/// <summary>What a series notes of the first failure of each status (the run's events).</summary>
public sealed class FirstFailuresTests
{
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
