using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// A server of code the project did not write, run by Node with the npm packages (@grpc/grpc-js, @grpc/reflection,
/// soap) of <c>tests/Assets/grpc-js-service</c>, installed there from its lock (<see cref="GrpcJsService.PackagesAsync"/>):
/// a script of <c>Calls/NodeServers</c>, or the asset's own service (<see cref="GrpcJsService"/>). The server binds
/// 127.0.0.1 on a free port and prints it; it is killed on Dispose, and ends by itself when this process's end of its
/// standard input closes.
/// </summary>
internal sealed partial class NodeServer : IDisposable
{
    private static readonly TimeSpan StartBound = TimeSpan.FromSeconds(30);

    private readonly Process _process;
    private readonly StringBuilder _output;

    private NodeServer(Process process, StringBuilder output, int port)
    {
        _process = process;
        _output = output;
        Port = port;
    }

    public int Port { get; }

    /// <summary>The scripts and their .proto and WSDL, as copied beside the tests.</summary>
    public static string Scripts => Path.Combine(AppContext.BaseDirectory, "Calls", "NodeServers");

    /// <summary>What the server printed so far, standard output and error, for a failed assertion's message.</summary>
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

    /// <summary>A script of <see cref="Scripts"/>, run there.</summary>
    public static Task<NodeServer> StartAsync(string script, params string[] args) => StartFileAsync(Path.Combine(Scripts, script), Scripts, args);

    /// <summary>Any script, run in <paramref name="workingDirectory"/>.</summary>
    /// <exception cref="InvalidOperationException">It exited, or did not print its port within 30 s; the message holds its output.</exception>
    public static async Task<NodeServer> StartFileAsync(string script, string workingDirectory, IReadOnlyList<string> args)
    {
        var modules = await GrpcJsService.PackagesAsync();
        var start = new ProcessStartInfo("node")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = workingDirectory,
        };
        start.Environment["NODE_PATH"] = modules;
        start.ArgumentList.Add(script);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var process = Process.Start(start)!;
        var output = new StringBuilder();
        var listening = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += (_, e) => Seen(e.Data);
        process.ErrorDataReceived += (_, e) => Seen(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        // A script that fails at once (a bad argument, a missing package) ends the wait with its exit, not after the bound.
        _ = process.WaitForExitAsync().ContinueWith(_ => listening.TrySetResult(0), TaskScheduler.Default);
        var port = await listening.Task.WaitAsync(StartBound).ContinueWith(t => t.IsCompletedSuccessfully ? t.Result : 0, TaskScheduler.Default);
        if (port > 0)
        {
            return new NodeServer(process, output, port);
        }

        var exited = process.HasExited ? $"; it exited with {process.ExitCode}" : "";
        if (!process.HasExited)
        {
            process.Kill(entireProcessTree: true);
        }

        process.Dispose();
        lock (output)
        {
            throw new InvalidOperationException(
                $"node {Path.GetFileName(script)} {string.Join(' ', args)} did not say it was listening within {StartBound.TotalSeconds} s{exited}: {output}");
        }

        void Seen(string? line)
        {
            if (line is null)
            {
                return;
            }

            lock (output)
            {
                output.AppendLine(line);
            }

            if (Listening().Match(line) is { Success: true } match)
            {
                listening.TrySetResult(int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture));
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
    }

    // "listening PORT" (Calls/NodeServers) or "listening 127.0.0.1:PORT" (the asset's service).
    [GeneratedRegex(@"^listening (?:127\.0\.0\.1:)?(\d+)$")]
    private static partial Regex Listening();
}
