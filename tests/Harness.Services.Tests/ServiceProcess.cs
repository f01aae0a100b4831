using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Harness.Services.Tests;

/// <summary>
/// A service run as its own process, so that its ThreadPool is not shared with the test runner or the stub;
/// measurements of the scheduling modes need that isolation. Killed, with its children, on dispose.
/// </summary>
public sealed class ServiceProcess : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);

    private readonly Process _process;
    private readonly StringBuilder _output;

    private ServiceProcess(Process process, StringBuilder output, Uri address, Uri adminAddress)
    {
        _process = process;
        _output = output;
        Address = address;
        AdminAddress = adminAddress;
    }

    /// <summary>The main endpoint: HTTP/1.1 for the stub and SOAP, HTTP/2 for gRPC.</summary>
    public Uri Address { get; }

    /// <summary>The HTTP/1.1 admin endpoint, where /healthz and /metrics are read.</summary>
    public Uri AdminAddress { get; }

    /// <param name="assemblyName">A service assembly copied beside the tests, e.g. <c>Harness.SoapService</c>.</param>
    public static async Task<ServiceProcess> StartAsync(string assemblyName, params string[] args)
    {
        var (port, adminPort) = TwoFreeLoopbackPorts();
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = AppContext.BaseDirectory,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, assemblyName + ".dll"));
        start.ArgumentList.Add($"--Listen:Port={port}");
        start.ArgumentList.Add($"--Listen:AdminPort={adminPort}");
        start.ArgumentList.Add("--Serilog:MinimumLevel:Default=Warning");
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var output = new StringBuilder();
        var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) => Append(output, e.Data);
        process.ErrorDataReceived += (_, e) => Append(output, e.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var service = new ServiceProcess(
            process, output, new Uri($"http://127.0.0.1:{port}/"), new Uri($"http://127.0.0.1:{adminPort}/"));
        try
        {
            await service.WaitHealthyAsync();
        }
        catch
        {
            await service.DisposeAsync();
            throw;
        }

        return service;
    }

    /// <summary>Reads one sample from /metrics, e.g. <c>harness_operations_executing_peak{operation="compute"}</c>.</summary>
    public async Task<double> ReadMetricAsync(string sample)
    {
        using var http = new HttpClient();
        var text = await http.GetStringAsync(new Uri(AdminAddress, "/metrics"));
        foreach (var line in text.Split('\n'))
        {
            if (line.StartsWith(sample + " ", StringComparison.Ordinal))
            {
                return double.Parse(line.AsSpan(sample.Length + 1), CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"/metrics has no sample '{sample}':\n{text}");
    }

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

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private async Task WaitHealthyAsync()
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < StartTimeout)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"The service exited with code {_process.ExitCode}:\n{Output}");
            }

            try
            {
                using var response = await http.GetAsync(new Uri(AdminAddress, "/healthz"));
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            await Task.Delay(100);
        }

        throw new TimeoutException($"The service was not healthy within {StartTimeout}:\n{Output}");
    }

    private static void Append(StringBuilder output, string? line)
    {
        if (line is not null)
        {
            lock (output)
            {
                output.AppendLine(line);
            }
        }
    }

    private static (int, int) TwoFreeLoopbackPorts()
    {
        // Both held open together so the OS cannot hand out the same port twice.
        using var first = new TcpListener(IPAddress.Loopback, 0);
        using var second = new TcpListener(IPAddress.Loopback, 0);
        first.Start();
        second.Start();
        return (((IPEndPoint)first.LocalEndpoint).Port, ((IPEndPoint)second.LocalEndpoint).Port);
    }
}
