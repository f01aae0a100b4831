namespace Harness.LoadTests.Tests.Calls;

/// <summary>The npm soap package serving the tests' own document/literal WSDL (Calls/NodeServers/calculator.wsdl).</summary>
public sealed class CalculatorServer : IAsyncLifetime
{
    private NodeServer? _server;

    /// <summary>The SOAP endpoint, whose <c>?wsdl</c> the server answers.</summary>
    public string Endpoint => $"http://127.0.0.1:{_server!.Port}/calculator";

    public async Task InitializeAsync() => _server = await NodeServer.StartAsync("soap-server.js", Path.Combine(NodeServer.Scripts, "calculator.wsdl"));

    public Task DisposeAsync()
    {
        _server?.Dispose();
        return Task.CompletedTask;
    }
}

/// <summary><c>harness run --call</c> against a SOAP service the project did not write, by operation name from its WSDL.</summary>
[Trait("Category", "EndToEnd")]
public sealed class SoapCallTests(CalculatorServer server) : IClassFixture<CalculatorServer>
{
    [Fact]
    public async Task WsdlOperation_IsLoadedByName_WithTemplatedData_AndReportsItsSeries()
    {
        // Act: the properties in the reverse of the schema's order, which the envelope puts right.
        var run = await CallRuns.RunAsync(["--target", $"soap={server.Endpoint}", "--call", "Add", "--data", """{"b":{{rand 1 9}},"a":{{seq}}}""", .. CallRuns.Short]);

        // Assert
        CallRuns.AssertServedWithoutErrors(run, "soap-add-external");
        Assert.Equal("Add", run.Series!.Parameters["call"]);
        Assert.Equal("""{"b":{{rand 1 9}},"a":{{seq}}}""", run.Series.Parameters["data"]);
        Assert.Equal("http://example.org/calculator/Add", run.Series.Parameters["soapAction"]);
        Assert.EndsWith("/calculator?wsdl", run.Series.Parameters["wsdl"], StringComparison.Ordinal);
    }

    [Fact]
    public async Task DataFeed_OfJsonLines_GivesEachCallItsRow()
    {
        // Arrange: divisors 1 to 50, drawn at random; the server answers a divisor of 0 (none here) with a fault.
        var feed = Path.Combine(HarnessRun.TempFolder(), "divisors.jsonl");
        await File.WriteAllLinesAsync(feed, Enumerable.Range(1, 50).Select(i => $$"""{"divisor":{{i}},"label":"n{{i}}"}"""));

        // Act
        var run = await CallRuns.RunAsync(
            ["--target", $"soap={server.Endpoint}", "--call", "Divide", "--data", """{"dividend":{{seq}},"divisor":{{feed.divisor}}}""",
             "--data-feed", feed, "--data-feed-order", "random", "--data-feed-seed", "42", .. CallRuns.Short]);

        // Assert: the report names the seed that repeats the draw.
        CallRuns.AssertServedWithoutErrors(run, "soap-divide-external");
        Assert.Equal($"{feed} (50 rows, random, seed 42)", run.Series!.Parameters["dataFeed"]);
    }

    [Fact]
    public async Task Envelope_IsSentAsATemplate()
    {
        var envelope = Path.Combine(HarnessRun.TempFolder(), "divide.xml");
        await File.WriteAllTextAsync(envelope, """
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>
              <Divide xmlns="http://example.org/calculator"><dividend>{{rand 10 99}}</dividend><divisor>{{user}}</divisor></Divide>
            </s:Body></s:Envelope>
            """);

        var run = await CallRuns.RunAsync(
            ["--target", $"soap={server.Endpoint}", "--call", "Divide", "--envelope", envelope, "--soap-action", "http://example.org/calculator/Divide", .. CallRuns.Short]);

        CallRuns.AssertServedWithoutErrors(run, "soap-divide-external");
    }

    [Fact]
    public async Task Fault_IsCountedByItsCode()
    {
        var run = await CallRuns.RunAsync(
            "--target", $"soap={server.Endpoint}", "--call", "Divide", "--data", """{"dividend":1,"divisor":0}""",
            "--profile", "constant", "--users", "1", "--time-scale", "0.015", "--warm-up", "0");

        Assert.True(run.ExitCode == 0, run.Output);
        var failures = run.Seconds.SelectMany(s => s.StatusCounts).GroupBy(c => c.Key).ToDictionary(g => g.Key, g => g.Sum(c => c.Value));
        Assert.Equal(["soap-fault-Client"], failures.Keys);
        Assert.Equal(run.Seconds.Sum(s => s.Requests), failures["soap-fault-Client"]);
    }

    [Fact]
    public async Task UnknownOperation_IsRefused_ListingTheWsdlsOperations()
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync("--target", $"soap={server.Endpoint}", "--call", "Multiply"));

        Assert.Contains("has no operation Multiply; its operations are Add, Divide", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task PropertyTheInputElementLacks_IsRefused_ListingItsElements()
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync("--target", $"soap={server.Endpoint}", "--call", "Add", "--data", """{"a":1,"c":2}"""));

        Assert.Contains("--data does not fit Add's input Add: element 'Add' has no element 'c'; its elements are a, b", line, StringComparison.Ordinal);
    }
}
