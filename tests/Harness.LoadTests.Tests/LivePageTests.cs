using System.Globalization;
using System.Text.RegularExpressions;
using Xunit.Abstractions;

namespace Harness.LoadTests.Tests;

/// <summary>
/// <c>harness run --live</c>: a real short run on loopback, its page opened in headless Chromium while the run lasts.
/// The page asks for each second as it ends, so the DOM's counters grow in steps until the run ends and the listener goes.
/// </summary>
public sealed partial class LivePageTests(ITestOutputHelper output) : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(120);

    private readonly string _folder = HarnessRun.TempFolder();

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task ThePage_ReceivesTheSeriesSecondBySecond_UntilTheRunEnds()
    {
        // Arrange: one gRPC series of 6 s after 2 s of warm-up; the page opens when the series has begun.
        using var harness = HarnessProcess.Start(
            "run", "--live", "--modes", "iocp", "--stacks", "grpc", "--operations", "compute", "--iterations", "100000",
            "--profile", "quick", "--time-scale", "0.3", "--warm-up", "2s", "--output", Path.Combine(_folder, "runs"));
        await harness.WaitForLineAsync("live: http://127.0.0.1:", Timeout);
        var url = new Uri(LiveLine().Match(harness.Output).Groups[1].Value);
        await harness.WaitForLineAsync("starting the grpc service", Timeout);

        // Act: Chromium's virtual time stands still while the page waits for a second, so it stays until the run ends.
        var dom = await HeadlessChromium.DumpDomAsync(url, _folder, Timeout);
        await harness.WaitForExitAsync(Timeout);

        // Assert
        var body = BodyTag().Match(dom).Value;
        output.WriteLine(body);
        Assert.True(body.Length > 0, "Chromium returned no <body>: " + dom[..Math.Min(dom.Length, 500)]);
        var received = Attribute(body, "seconds-received");
        var updates = Attribute(body, "updates");
        Assert.True(updates >= 3, $"the page should have been updated several times while it was open; it was {updates} times ({received} seconds).");
        Assert.True(received >= 8, $"the page should have received every second of the 8 s series; it has {received}.");
        Assert.Contains("data-ended=\"true\"", body, StringComparison.Ordinal);
        Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"<b id=\"received\">{received}</b>"), dom, StringComparison.Ordinal);
        Assert.Matches(@"id=""line""[^>]*>\[1/1 grpc-compute-iocp\] \d\d:\d\d/00:06  users \d+/\d+  \d+ req/s  p50 ", dom);
        Assert.Equal(5, Regex.Count(dom, "<canvas"));
        Assert.DoesNotContain("class=\"notice error\"", dom, StringComparison.Ordinal);
        Assert.Equal(0, harness.ExitCode);
    }

    private static int Attribute(string body, string name)
    {
        var match = Regex.Match(body, $"data-{name}=\"(\\d+)\"");
        Assert.True(match.Success, $"data-{name} is missing: {body}");
        return int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
    }

    [GeneratedRegex(@"live: (http://127\.0\.0\.1:\d+/)")]
    private static partial Regex LiveLine();

    [GeneratedRegex("<body[^>]*>")]
    private static partial Regex BodyTag();
}
