namespace Harness.LoadTests.Tests;

/// <summary>
/// <c>--log-level</c> on a whole <c>harness run</c> against a server that answers every connection with GOAWAY
/// ENHANCE_YOUR_CALM (<see cref="HostileServers"/>): the runner's lean client says so on standard error at Warning,
/// with the code, by default; a level above Warning hides it; and a level that is not one is refused naming them. A SOAP
/// <c>--call</c>'s client logs alike (a reply past its bound).
/// </summary>
// With the hostile runs: its calls fail by the thousand a second, and would starve a test beside it.
[Trait("Category", "EndToEnd")]
[Collection(nameof(HostileRunTests))]
public sealed class ClientTraceRunTests
{
    private static readonly TimeSpan RunBound = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData(null, true)] // the default, warning
    [InlineData("error", false)]
    public async Task Run_AgainstAServerThatSaysGoAway_LogsItOnStandardError_AtWarning(string? level, bool shown)
    {
        // Arrange
        await using var server = HostileServers.Start("grpc-goaway");
        var output = HarnessRun.TempFolder();
        string[] levelOption = level is null ? [] : ["--log-level", level];

        // Act: quick at 0.05, 1 s of load.
        var (exitCode, text, log) = await HarnessRun.InvokeWithLogAsync(
        [
            "run", "--target", $"grpc={server.Address},metrics={server.Address}", "--mode-label", "hostile", "--operations", "compute",
            "--profile", "quick", "--time-scale", "0.05", "--warm-up", "0", "--timeout", "2s", "--output", output, .. levelOption,
        ]).WaitAsync(RunBound);

        // Assert: the run reached the server and went on as before; the GOAWAY is on the log, not on standard output.
        Assert.True(exitCode == 0, text);
        Assert.True(server.Accepted > 0, "the runner never reached the server");
        Assert.DoesNotContain("GOAWAY received", text, StringComparison.Ordinal);
        var line = $"WRN] harness: HTTP/2 GOAWAY received from 127.0.0.1:{server.Address.Port}: ENHANCE_YOUR_CALM, last stream 0";
        if (shown)
        {
            Assert.Contains(line, log, StringComparison.Ordinal);
        }
        else
        {
            Assert.DoesNotContain("GOAWAY", log, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task SoapCall_AgainstAnEndlessBody_LogsTheBoundItPassed_AtWarning()
    {
        // Arrange: a SOAP --call (its own client, built from the call's plan) against a server whose body never ends.
        await using var server = HostileServers.Start("soap-endless-chunked");
        var envelope = Path.Combine(HarnessRun.TempFolder(), "ping.xml");
        await File.WriteAllTextAsync(envelope, """<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>""");

        // Act
        var (exitCode, text, log) = await HarnessRun.InvokeWithLogAsync(
        [
            "run", "--target", $"soap={server.Address},metrics={server.Address}", "--call", "Ping", "--envelope", envelope,
            "--soap-action", "urn:ping", "--profile", "quick", "--time-scale", "0.05", "--warm-up", "0", "--timeout", "2s",
            "--output", HarnessRun.TempFolder(),
        ]).WaitAsync(RunBound);

        // Assert: the run went on as before, and the log says why the client closed the connection.
        Assert.True(exitCode == 0, text);
        Assert.True(server.Accepted > 0, "the runner never reached the server");
        Assert.Contains($"WRN] harness: HTTP/1.1 reply from 127.0.0.1:{server.Address.Port} past a bound", log, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ALogLevelThatIsNotOne_IsRefused_NamingTheValidValues()
    {
        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--log-level", "verbose", "--stacks", "grpc");

        // Assert
        Assert.Equal(2, exitCode);
        Assert.Contains("--log-level 'verbose': valid values are none, error, warning, information, debug.", text, StringComparison.Ordinal);
    }
}
