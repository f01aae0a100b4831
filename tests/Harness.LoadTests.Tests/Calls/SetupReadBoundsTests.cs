using System.Diagnostics;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// What a <c>--call</c>'s setup reads from the user's server (the WSDL, the gRPC reflection) is bounded in size and by
/// <c>--timeout</c>: a server that answers without end, or never, is refused as any setup refusal (exit code 2, nothing
/// written), the bound and the address named. Every server is on loopback; each run is bounded by the test.
/// </summary>
public sealed class SetupReadBoundsTests
{
    // Far below the 60 s of the default --timeout, far above the 1 s the runs are given.
    private static readonly TimeSpan RunBound = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task WsdlStreamedWithoutEnd_IsRefused_NamingTheSizeBoundAndTheUrl()
    {
        // Arrange: every request answered with an endless chunked body (128 MB at most).
        await using var server = HostileServers.Start("soap-endless-chunked");

        // Act
        var run = await CallRuns.RunAsync("--target", $"soap={server.Address}", "--call", "Add").WaitAsync(RunBound);

        // Assert: refused at the first candidate, ?singleWsdl, without trying ?wsdl.
        var line = CallRuns.AssertRefused(run);
        Assert.Contains($"{server.Address}?singleWsdl took it past 16 MiB", line, StringComparison.Ordinal);
        Assert.Equal(1, server.Accepted);
    }

    [Fact]
    public async Task WsdlAndItsImports_Above16MiBInAll_AreRefused_NamingTheDocumentThatPassedIt()
    {
        // Arrange: a WSDL importing three schemas of 6 MiB each, every one within the bound alone.
        const string Wsdl =
            "<definitions xmlns=\"http://schemas.xmlsoap.org/wsdl/\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><types><xs:schema>"
            + "<xs:import schemaLocation=\"/s1\"/><xs:import schemaLocation=\"/s2\"/><xs:import schemaLocation=\"/s3\"/>"
            + "</xs:schema></types></definitions>";
        var schema = $"<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><!--{new string('x', 6 << 20)}--></xs:schema>";
        await using var server = new ScriptedHttpServer(e =>
        {
            var body = e.Request.StartsWith("GET /svc", StringComparison.Ordinal) ? Wsdl : schema;
            return e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {body.Length}\r\n\r\n{body}");
        });

        // Act
        var run = await CallRuns.RunAsync("--target", $"soap={server.Address}", "--call", "Add").WaitAsync(RunBound);

        // Assert
        var line = CallRuns.AssertRefused(run);
        Assert.Contains($"{new Uri(server.Address, "/s3")} took it past 16 MiB", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WsdlNeverAnswered_IsRefusedWithinTheTimeout_NamingItAndTheUrl()
    {
        // Arrange: a server that reads and never answers.
        await using var server = new SilentServer();
        var clock = Stopwatch.StartNew();

        // Act
        var run = await CallRuns.RunAsync("--target", $"soap={server.Address}svc", "--call", "Add", "--timeout", "1s").WaitAsync(RunBound);

        // Assert: the message names the bound that ended it, and the default's 60 s were not waited.
        var line = CallRuns.AssertRefused(run);
        Assert.Contains($"{server.Address}svc?singleWsdl sent no whole answer within --timeout 1s", line, StringComparison.Ordinal);
        Assert.True(clock.Elapsed < RunBound, $"{clock.Elapsed}");
    }

    [Fact]
    public async Task ReflectionNeverAnswered_IsRefusedWithinTheTimeout_NamingIt()
    {
        // Arrange: a server that reads and never answers, not even with HTTP/2's SETTINGS.
        await using var server = new SilentServer();

        // Act
        var run = await CallRuns.RunAsync("--target", $"grpc={server.Address}", "--call", "greet.Greeter/SayHello", "--timeout", "1s").WaitAsync(RunBound);

        // Assert
        var line = CallRuns.AssertRefused(run);
        Assert.Contains($"{server.Address} did not answer its reflection service within --timeout 1s", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ReflectionAnswerAbove16MiB_IsRefused_NamingTheSizeBound()
    {
        // Arrange: the reflection's first answer claims 17 MiB (100 bytes of it sent).
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            var id = await c.NextRequestAsync();
            await c.SendAsync(H2.HeadersFrame(id, H2.ResponseHeaders()), H2.DataFrame(id, H2.Message(new byte[100], declaredLength: 17u << 20)));
            await c.HoldAsync();
        });

        // Act
        var run = await CallRuns.RunAsync("--target", $"grpc={server.Address}", "--call", "greet.Greeter/SayHello", "--timeout", "10s").WaitAsync(RunBound);

        // Assert
        var line = CallRuns.AssertRefused(run);
        Assert.Contains("sent more reflection than a --call's setup reads, at most 16 MiB and 500 files", line, StringComparison.Ordinal);
    }
}
