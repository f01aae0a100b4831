using Harness.Contracts;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Tests;

/// <summary>What the real clients throw when nothing listens, and the name each failure is counted under.</summary>
public sealed class FailureStatusTests
{
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
    }
}
