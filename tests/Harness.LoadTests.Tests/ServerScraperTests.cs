using Harness.LoadTests.Recording;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>
/// The run's /metrics reads against a target that answers with more than any exposition: each read gives up at the
/// body's bound (<see cref="ServerScraper.MaxBodySize"/>) and says the target did not answer, rather than holding what
/// it could read in its second (HttpClient's own bound is 2 GiB), or waiting for a gigabyte that will never come. And
/// what a read records of a page in another library's names (docs/runtime.md).
/// </summary>
public sealed class ServerScraperTests : IDisposable
{
    private const string Series = "soap-compute-hostile";

    private readonly string _folder = HarnessRun.TempFolder();

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Theory]
    [InlineData("length")]  // 1 GiB announced, a byte every 50 ms
    [InlineData("chunked")] // 16 KB chunks without end
    public async Task MetricsBody_PastTheBound_FailsTheRead_AndIsReportedAsNotAnswering(string reply)
    {
        // Arrange
        await using var server = new ScriptedHttpServer(async e =>
        {
            if (reply == "length")
            {
                await e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Length: {1L << 30}\r\n\r\n");
                await e.RepeatAsync("x", 200, TimeSpan.FromMilliseconds(50));
            }
            else
            {
                await e.WriteAsync("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
                await e.RepeatAsync($"4000\r\n{new string('x', 0x4000)}\r\n", 8_192);
            }
        });
        using var recorder = new GuardedRecorder(new RunRecorder(RunnerSamplerTests.Manifest(Series), _folder), CancellationToken.None);
        using var http = ServerScraper.NewHttpClient();

        // Act: three seconds of reads, each within its 900 ms (16 MiB in 2.7 s of reading is 6 MB/s).
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(3));
        await new ServerScraper(http, recorder, 0).RunAsync(Series, server.Address, stop.Token).WaitAsync(TimeSpan.FromSeconds(15));
        recorder.Complete();

        // Assert: the target is reported as not answering, for its body's size; nothing of it recorded.
        var run = RawRunReader.Read(_folder);
        var down = Assert.Single(run.Events);
        Assert.Equal("target-down", down.Kind);
        Assert.Contains($"{ServerScraper.MaxBodySize}", down.Message, StringComparison.Ordinal);
        Assert.All(run.Timelines[Series], s => Assert.Empty(s.Server));
    }

    [Fact]
    public async Task A_targets_runtime_metrics_in_OpenTelemetrys_names_are_recorded_under_the_contracts_too()
    {
        // Arrange: /metrics as OpenTelemetry's Prometheus exporter writes the System.Runtime meter.
        const string Page = "dotnet_thread_pool_thread_count{otel_scope_name=\"System.Runtime\"} 14\n"
            + "dotnet_process_cpu_time_seconds_total{otel_scope_name=\"System.Runtime\",cpu_mode=\"user\"} 12.5\n"
            + "dotnet_process_cpu_time_seconds_total{otel_scope_name=\"System.Runtime\",cpu_mode=\"system\"} 3.25\n"
            + "dotnet_process_memory_working_set_bytes{otel_scope_name=\"System.Runtime\"} 104857600\n";
        await using var server = new ScriptedHttpServer(e =>
            e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: {Page.Length}\r\n\r\n{Page}"));
        using var recorder = new GuardedRecorder(new RunRecorder(RunnerSamplerTests.Manifest(Series), _folder), CancellationToken.None);
        using var http = ServerScraper.NewHttpClient();

        // Act: the first read, at once, then the loop stops.
        using var stop = new CancellationTokenSource(TimeSpan.FromMilliseconds(500));
        await new ServerScraper(http, recorder, 0).RunAsync(Series, server.Address, stop.Token).WaitAsync(TimeSpan.FromSeconds(15));
        recorder.Complete();

        // Assert: the page as it was, and the process figures under the names the report reads.
        var first = RawRunReader.Read(_folder).Timelines[Series].First(s => s.Server.Count > 0).Server;
        Assert.Equal(14, first["dotnet_thread_pool_thread_count{otel_scope_name=\"System.Runtime\"}"]);
        Assert.Equal(15.75, first["process_cpu_seconds_total"], 9);
        Assert.Equal(104857600, first["process_working_set_bytes"]);
    }
}
