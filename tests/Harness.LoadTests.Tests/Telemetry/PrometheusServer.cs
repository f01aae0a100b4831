using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Tests.Telemetry;

/// <summary>
/// A real Prometheus (Debian's <c>prometheus</c> package, which <c>.ci/run</c> installs) of the test's own: its
/// configuration, a temporary storage folder, a free loopback port; killed and removed on dispose. Scrapes every
/// target each second.
/// </summary>
internal sealed class PrometheusServer : IDisposable
{
    public const string InstallHint = "The telemetry end-to-end test runs a real Prometheus. Install it with: apt-get update && apt-get install -y --no-install-recommends prometheus";

    private static readonly TimeSpan ReadyTimeout = TimeSpan.FromSeconds(30);

    private readonly Process _process;
    private readonly string _folder;
    private readonly StringBuilder _output = new();
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(10) };

    private PrometheusServer(Process process, string folder, Uri address)
    {
        _process = process;
        _folder = folder;
        Address = address;
    }

    public Uri Address { get; }

    /// <summary>Starts Prometheus scraping each job's targets (host:port, path /metrics) every second, and waits until it answers.</summary>
    public static async Task<PrometheusServer> StartAsync(IReadOnlyDictionary<string, string[]> jobs)
    {
        var binary = Find();
        Assert.True(binary is not null, InstallHint);
        var folder = HarnessRun.TempFolder();
        var config = new StringBuilder("global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n");
        foreach (var (job, targets) in jobs)
        {
            config.Append(CultureInfo.InvariantCulture, $"  - job_name: {job}\n    static_configs:\n      - targets: [{string.Join(", ", targets.Select(t => $"'{t}'"))}]\n");
        }

        await File.WriteAllTextAsync(Path.Combine(folder, "prometheus.yml"), config.ToString());
        var port = LoopbackPorts.Free(1)[0];
        var address = new Uri(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}/"));
        var start = new ProcessStartInfo(binary) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in (string[])[
            $"--config.file={Path.Combine(folder, "prometheus.yml")}", $"--storage.tsdb.path={Path.Combine(folder, "data")}",
            $"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"])
        {
            start.ArgumentList.Add(argument);
        }

        var server = new PrometheusServer(new Process { StartInfo = start }, folder, address);
        server._process.OutputDataReceived += (_, e) => server.Append(e.Data);
        server._process.ErrorDataReceived += (_, e) => server.Append(e.Data);
        server._process.Start();
        server._process.BeginOutputReadLine();
        server._process.BeginErrorReadLine();
        await server.WaitUntilReadyAsync();
        return server;
    }

    /// <summary>The value of each series an instant query returns, by the value of <paramref name="label"/> (empty for none).</summary>
    public async Task<IReadOnlyDictionary<string, double>> QueryAsync(string promql, string label = "")
    {
        var json = await _http.GetStringAsync(new Uri(Address, "api/v1/query?query=" + Uri.EscapeDataString(promql)));
        using var document = JsonDocument.Parse(json);
        var data = document.RootElement.GetProperty("data");
        Assert.Equal("vector", data.GetProperty("resultType").GetString());
        return data.GetProperty("result").EnumerateArray().ToDictionary(
            r => r.GetProperty("metric").TryGetProperty(label, out var value) ? value.GetString()! : "",
            r => double.Parse(r.GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture));
    }

    /// <summary>The raw answer to a query, for a failure's message.</summary>
    public async Task<string> RawAsync(string promql) =>
        await _http.GetStringAsync(new Uri(Address, "api/v1/query?query=" + Uri.EscapeDataString(promql)));

    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit(5000);
        }

        _process.Dispose();
        _http.Dispose();
        Directory.Delete(_folder, recursive: true);
    }

    private async Task WaitUntilReadyAsync()
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            Assert.False(_process.HasExited, "prometheus exited at start: " + Output);
            try
            {
                using var answer = await _http.GetAsync(new Uri(Address, "-/ready"));
                if (answer.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            Assert.True(clock.Elapsed < ReadyTimeout, $"prometheus was not ready within {ReadyTimeout.TotalSeconds} s: {Output}");
            await Task.Delay(100);
        }
    }

    /// <summary>
    /// Waits until Prometheus has tried each of its <paramref name="targets"/> once (one not listening yet counts, as
    /// <c>up</c> 0): it hands its targets to the scraper up to 5 s after it starts, and a short run begun before then
    /// would go unseen.
    /// </summary>
    public async Task WaitUntilScrapedAsync(int targets)
    {
        var clock = Stopwatch.StartNew();
        while ((await QueryAsync("up", "instance")).Count < targets)
        {
            Assert.True(clock.Elapsed < ReadyTimeout, $"prometheus did not scrape its {targets} targets within {ReadyTimeout.TotalSeconds} s: {Output}");
            await Task.Delay(100);
        }
    }

    private static string? Find()
    {
        var path = Environment.GetEnvironmentVariable("PATH") ?? "";
        return path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries).Select(dir => Path.Combine(dir, "prometheus")).FirstOrDefault(File.Exists);
    }

    private void Append(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.AppendLine(line);
            }
        }
    }
}
