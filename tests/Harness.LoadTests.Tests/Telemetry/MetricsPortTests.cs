using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Harness.LoadTests.Tests.Telemetry;

/// <summary>A metrics port that cannot be listened on is bad input: said at once, before any service starts or any folder is made.</summary>
public sealed class MetricsPortTests
{
    [Fact]
    public async Task Run_OnAPortAnotherProcessHolds_ExitsWithCode2_BeforeAnyLoad()
    {
        // Arrange: the port taken on every interface, as the runner would take it.
        using var holder = new TcpListener(IPAddress.Any, 0);
        holder.Start();
        var port = ((IPEndPoint)holder.LocalEndpoint).Port.ToString(CultureInfo.InvariantCulture);
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--metrics-port", port, "--output", output);

        // Assert
        Assert.Equal(2, exitCode);
        Assert.Contains($"error: --metrics-port {port}: cannot listen on it (", text, StringComparison.Ordinal);
        Assert.DoesNotContain("starting the", text, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(output));
    }
}
