using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// A server of code the project did not write: a script of <c>Calls/NodeServers</c> run by Node with the npm packages
/// (@grpc/grpc-js, @grpc/reflection, soap) of <c>tests/Assets/grpc-js-service</c>, installed there from its lock
/// (<see cref="GrpcJsService.PackagesAsync"/>). The server binds 127.0.0.1 on a free port and prints it;
/// it is killed on Dispose, and ends by itself when this process's end of its standard input closes.
/// </summary>
internal sealed partial class NodeServer : IDisposable
{
    private static readonly TimeSpan StartBound = TimeSpan.FromSeconds(30);

    private readonly Process _process;

    private NodeServer(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    /// <summary>The scripts and their .proto and WSDL, as copied beside the tests.</summary>
    public static string Scripts => Path.Combine(AppContext.BaseDirectory, "Calls", "NodeServers");

    public static async Task<NodeServer> StartAsync(string script, params string[] args)
    {
        var modules = await GrpcJsService.PackagesAsync();
        var start = new ProcessStartInfo("node")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Scripts,
        };
        start.Environment["NODE_PATH"] = modules;
        start.ArgumentList.Add(Path.Combine(Scripts, script));
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
        try
        {
            var port = await listening.Task.WaitAsync(StartBound);
            return new NodeServer(process, port);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            process.Dispose();
            lock (output)
            {
                throw new InvalidOperationException($"node {script} did not say it was listening within {StartBound.TotalSeconds} s: {output}");
            }
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

    [GeneratedRegex(@"^listening (\d+)$")]
    private static partial Regex Listening();
}
