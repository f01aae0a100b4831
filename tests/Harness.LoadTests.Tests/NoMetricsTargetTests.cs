using Harness.LoadTests.Recording;
using Harness.ServiceDefaults;
using Harness.SoapService;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace Harness.LoadTests.Tests;

/// <summary>A target without /metrics (any real CoreWCF service) is "no server metrics", not an outage.</summary>
[Trait("Category", "EndToEnd")]
public sealed class NoMetricsTargetTests
{
    [Fact]
    public async Task SoapTargetWhoseMetricsAre404_IsLoadedAndReported_WithOneNoteAndNoOutage()
    {
        // Arrange: the SOAP service on Kestrel, with /metrics answered 404 as a service that has none would.
        await using var app = SoapApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal", "--Scheduling:Mode=iocp"]);
        app.Use((HttpContext context, RequestDelegate next) =>
            context.Request.Path == "/metrics" ? Results.NotFound().ExecuteAsync(context) : next(context));
        await app.StartAsync();
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--target", $"soap={app.GetBoundAddress()}", "--mode-label", "corewcf", "--operations", "compute",
            "--iterations", "1000", "--profile", "constant", "--users", "2", "--duration", "4s", "--warm-up", "0", "--output", output);
        await app.StopAsync();

        // Assert: every request served, one note saying why there are no server samples, no target-down.
        Assert.True(exitCode == 0, text);
        var folder = HarnessRun.RunFolder(output);
        var run = RawRunReader.Read(folder);
        var series = Assert.Single(run.Manifest.Series);
        var timeline = run.Timelines[series.Id];
        Assert.True(timeline.Sum(s => s.Requests) > 0, "no request was made");
        Assert.Equal(0, timeline.Sum(s => s.Failures));
        Assert.DoesNotContain(run.Events, e => e.Kind.StartsWith("target-", StringComparison.Ordinal));
        var note = Assert.Single(run.Events);
        Assert.Equal("note", note.Kind);
        Assert.Contains("/metrics answered 404 NotFound: no server metrics", note.Message, StringComparison.Ordinal);
        var markdown = await File.ReadAllTextAsync(Path.Combine(folder, "summary.md"));
        Assert.Contains("corewcf: no server samples", markdown, StringComparison.Ordinal);
    }
}
