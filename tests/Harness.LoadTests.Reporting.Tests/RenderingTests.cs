using System.Text.RegularExpressions;
using Harness.Tests.Shared;
using Xunit.Abstractions;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// Opens a written report in headless Chromium and checks that the page's script drew every chart. Chromium is
/// required, not optional: without it this test fails and says how to install it (<see cref="HeadlessChromium"/>).
/// </summary>
public sealed partial class RenderingTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(45);

    private readonly ITestOutputHelper _output;
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "harness-render-" + Guid.NewGuid().ToString("N"));

    public RenderingTests(ITestOutputHelper output) => _output = output;

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    [Fact]
    public async Task Every_chart_of_a_three_mode_run_draws_in_a_headless_browser()
    {
        var dom = await RenderAsync(Runs.ThreeModeRamp());

        var body = BodyTag().Match(dom);
        Assert.True(body.Success, "Chromium returned no <body>: " + dom[..Math.Min(dom.Length, 500)]);
        int Attribute(string name)
        {
            var match = Regex.Match(body.Value, $"data-{name}=\"(\\d+)\"");
            Assert.True(match.Success, $"The page's script did not set data-{name}; it did not finish. <body> tag: {body.Value}");
            return int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
        }

        // ramp group: 3 classic + load, throughput, latency, vs-load, failures, spectrum, 3 heatmaps, 6 server charts = 18;
        // soap group (iocp without server samples): 2 classic + 4 client + spectrum + 2 heatmaps + 6 server = 15;
        // open-model group: 2 classic + 4 client + intended latency + spectrum + 2 heatmaps + 6 server = 16.
        _output.WriteLine(body.Value);
        Assert.Equal(0, Attribute("chart-errors"));
        Assert.Equal(49, Attribute("charts-expected"));
        Assert.Equal(0, Attribute("charts-blank"));
        Assert.Equal(49, Attribute("charts-drawn"));
        Assert.Equal(49, Regex.Count(dom, "<canvas"));
        Assert.DoesNotContain("class=\"notice error\"", dom, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Every_chart_of_a_run_with_repeated_modes_draws_in_a_headless_browser()
    {
        var dom = await RenderAsync(Runs.Repeated());

        // 6 classic (one per repetition) + load, throughput, latency, server/queue time, vs-load + spectrum + 6 heatmaps + 6 server charts = 24.
        var body = BodyTag().Match(dom).Value;
        _output.WriteLine(body);
        Assert.Contains("data-chart-errors=\"0\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-expected=\"24\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-drawn=\"24\"", body, StringComparison.Ordinal);
        Assert.Contains("Modes over their repetitions", dom, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Every_chart_of_a_soak_draws_in_a_headless_browser()
    {
        var dom = await RenderAsync(SoakRuns.Run(SoakRuns.Series("threadpool", leak: false, drift: false), SoakRuns.Series("iocp", leak: true, drift: true)));

        // 2 classic + 4 soak (p99, req/s, memory, threads) + load, throughput, latency, vs-load + spectrum + 2 heatmaps + 6 server charts = 19.
        var body = BodyTag().Match(dom).Value;
        _output.WriteLine(body);
        Assert.Contains("data-chart-errors=\"0\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-expected=\"19\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-drawn=\"19\"", body, StringComparison.Ordinal);
        Assert.Contains("Soak: memory", dom, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_runtimes_threadpool_lines_draw_beside_the_services_own_in_a_headless_browser()
    {
        var dom = await RenderAsync(RuntimeRuns.Run(s => RuntimeRuns.Starved(s), s => RuntimeRuns.Healthy(s), s => RuntimeRuns.AdjustmentsOnly(s)));

        // 3 classic + load, throughput, latency, vs-load + spectrum + 3 heatmaps + 6 server charts = 17.
        var body = BodyTag().Match(dom).Value;
        _output.WriteLine(body);
        Assert.Contains("data-chart-errors=\"0\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-expected=\"17\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-drawn=\"17\"", body, StringComparison.Ordinal);
        Assert.Contains("dashed: the ThreadPool's threads as the .NET runtime reported them", dom, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_charts_of_ramps_with_knees_draw_in_a_headless_browser()
    {
        var dom = await RenderAsync(Runs.Run([KneeTests.Ramp("threadpool", kneeAt: 12), KneeTests.Ramp("iocp", kneeAt: 32), KneeTests.Ramp("custompool", kneeAt: null)]));

        // 3 classic + load, throughput, latency, vs-load + spectrum + 3 heatmaps (no server samples: one empty card) = 11.
        var body = BodyTag().Match(dom).Value;
        _output.WriteLine(body);
        Assert.Contains("data-chart-errors=\"0\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-expected=\"11\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-drawn=\"11\"", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_modes_small_multiples_share_their_scales_and_an_isolated_second_gets_a_marker()
    {
        // Arrange: threadpool reaches 8 users, 4 s and ~2 req/s; iocp stays at 4 users and 1 s, and its requests
        // complete in seconds 2 and 5 alone, each between empty seconds, and in 8–9.
        var slow = Enumerable.Range(0, 10).Select(s => Runs.Sample(s, 4 + (s / 5 * 4), Runs.Histogram((4_000_000, 2)))).ToList();
        var fast = Enumerable.Range(0, 10)
            .Select(s => Runs.Sample(s, 4, s is 2 or 5 or 8 or 9 ? Runs.Histogram((1_000_000, 1)) : new Recording.LatencyHistogram()))
            .ToList();
        var run = Runs.Run([(Runs.Series("grpc", "call-third-party", "threadpool"), slow), (Runs.Series("grpc", "call-third-party", "iocp"), fast)]);

        // Act
        var dom = await RenderAsync(run);

        // Assert: the two classic charts come first, one per mode, with the same range on every axis.
        var scales = CanvasScales().Matches(dom).Select(m => m.Groups[1].Value).ToList();
        _output.WriteLine(string.Join(Environment.NewLine, scales));
        Assert.True(scales.Count > 2, "no chart recorded its scales");
        Assert.Contains("y2=0..", scales[0], StringComparison.Ordinal);
        Assert.Equal(scales[0], scales[1]);
        var markers = Regex.Match(dom, "Response time over time</h4>.*?<canvas[^>]*data-markers=\"(\\d+)\"", RegexOptions.Singleline);
        Assert.True(markers.Success, "the response-time chart recorded no marker count");
        Assert.Equal("4", markers.Groups[1].Value); // seconds 2 and 5, on iocp's mean line and its p99 line
    }

    [Fact]
    public async Task Every_chart_of_a_comparison_report_draws_in_a_headless_browser()
    {
        var files = ComparisonWriter.WriteAll(
            MultiRunComparison.Build([CompareReportTests.RunOf("a", 100, 102, 104), CompareReportTests.RunOf("b", 120, 122, 124), CompareReportTests.RunOf("c", 90)]),
            Path.Combine(_directory, "compare"), gatePercent: 5);

        var dom = await HeadlessChromium.DumpDomAsync(new Uri(files.Html), _directory, Timeout);

        // One compared series: response time, throughput, server threads and the percentile spectrum.
        var body = BodyTag().Match(dom).Value;
        _output.WriteLine(body);
        Assert.Contains("data-chart-errors=\"0\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-expected=\"4\"", body, StringComparison.Ordinal);
        Assert.Contains("data-charts-drawn=\"4\"", body, StringComparison.Ordinal);
        Assert.Contains("Regression gate: <b>FAIL</b>", dom, StringComparison.Ordinal);
    }

    private async Task<string> RenderAsync(Recording.RunData run)
    {
        var files = ReportWriter.WriteAll(RunAnalysis.Of(run), _directory);
        return await HeadlessChromium.DumpDomAsync(new Uri(files.Html), _directory, Timeout);
    }

    [GeneratedRegex("<canvas[^>]*data-scales=\"([^\"]*)\"")]
    private static partial Regex CanvasScales();

    [GeneratedRegex("<body[^>]*>")]
    private static partial Regex BodyTag();
}
