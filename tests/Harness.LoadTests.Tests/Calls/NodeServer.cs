using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// A server of code the project did not write: a script of <c>Calls/NodeServers</c> run by Node with npm packages
/// (@grpc/grpc-js, @grpc/reflection, soap), installed from the package source once per package list into a
/// folder under the temp folder and reused by later runs. The server binds 127.0.0.1 on a free port and prints it;
/// it is killed on Dispose, and ends by itself when this process's end of its standard input closes.
/// </summary>
internal sealed partial class NodeServer : IDisposable
{
    private static readonly string[] Packages = ["@grpc/grpc-js@1.14.7", "@grpc/proto-loader@0.8.1", "@grpc/reflection@1.0.4", "soap@1.13.0"];
    private static readonly TimeSpan InstallBound = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan StartBound = TimeSpan.FromSeconds(30);
    private static readonly SemaphoreSlim Installing = new(1, 1);

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
        var modules = await InstallAsync();
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

    /// <summary>The node_modules folder, installed once per package list (a folder moved into place whole, so a half-done install is never reused).</summary>
    private static async Task<string> InstallAsync()
    {
        var hash = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(string.Join(' ', Packages))))[..12];
        var folder = Path.Combine(Path.GetTempPath(), "harness-tests", $"node-servers-{hash}");
        var modules = Path.Combine(folder, "node_modules");
        await Installing.WaitAsync();
        try
        {
            if (Directory.Exists(modules))
            {
                return modules;
            }

            var staging = $"{folder}.{Guid.NewGuid():N}";
            Directory.CreateDirectory(staging);
            await File.WriteAllTextAsync(Path.Combine(staging, "package.json"), "{\"private\": true}");
            var start = new ProcessStartInfo("npm") { WorkingDirectory = staging, RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var arg in (string[])["install", "--no-audit", "--no-fund", "--no-progress", .. Packages])
            {
                start.ArgumentList.Add(arg);
            }

            using var npm = Process.Start(start)!;
            var errors = npm.StandardError.ReadToEndAsync();
            _ = npm.StandardOutput.ReadToEndAsync();
            using var bound = new CancellationTokenSource(InstallBound);
            await npm.WaitForExitAsync(bound.Token);
            if (npm.ExitCode != 0)
            {
                throw new InvalidOperationException($"npm install {string.Join(' ', Packages)} failed ({npm.ExitCode}): {await errors}");
            }

            try
            {
                Directory.Move(staging, folder);
            }
            catch (IOException) when (Directory.Exists(modules))
            {
                // Another test process installed it first.
                Directory.Delete(staging, recursive: true);
            }

            return modules;
        }
        finally
        {
            Installing.Release();
        }
    }

    [GeneratedRegex(@"^listening (\d+)$")]
    private static partial Regex Listening();
}
