using System.ComponentModel;
using System.Diagnostics;
using Harness.Contracts;

namespace Harness.Services.Tests;

/// <summary>
/// A client generated from the SOAP service's <c>?singleWsdl</c> by a generator the project did not write: gSOAP's
/// wsdl2h and soapcpp2 (Debian's gsoap and libgsoap-dev, which .ci/run installs), compiled with gcc. Its program
/// (GeneratedClient/harness_client.c) uses the names gSOAP gives a WSDL of CoreWCF's shape, so it compiles only
/// against that shape, and then calls both operations, one of them with an argument the service refuses.
/// </summary>
public sealed class SoapGeneratedClientTests
{
    private const string InstallHint =
        "gSOAP generates the client from the WSDL. Install it with: apt-get update && apt-get install -y gsoap libgsoap-dev gcc (.ci/run does)";

    private static readonly TimeSpan StepBound = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task ClientGeneratedByGsoapFromTheWsdl_CallsBothOperations()
    {
        // Arrange
        foreach (var tool in (string[])["wsdl2h", "soapcpp2", "gcc"])
        {
            Assert.True(IsOnPath(tool), $"{tool} is not on PATH. {InstallHint}");
        }

        await using var harness = await InProcessHarness.StartAsync(Stack.Soap, "threadpool");
        var endpoint = new Uri(harness.ServiceAddress, HarnessContract.SoapPath);
        var work = Directory.CreateTempSubdirectory("harness-gsoap-").FullName;
        try
        {
            using (var http = new HttpClient())
            {
                await File.WriteAllTextAsync(Path.Combine(work, "harness.wsdl"), await http.GetStringAsync(endpoint + "?singleWsdl"));
            }

            File.Copy(Path.Combine(AppContext.BaseDirectory, "GeneratedClient", "harness_client.c"), Path.Combine(work, "harness_client.c"));
            await RunAsync(work, "wsdl2h", "-c", "-o", "harness.h", "harness.wsdl");
            await RunAsync(work, "soapcpp2", "-c", "-C", "-L", "-x", "harness.h");
            await RunAsync(work, "gcc", "-o", "harness_client", "harness_client.c", "soapC.c", "soapClient.c", "-lgsoap");

            // Act
            var output = await RunAsync(work, Path.Combine(work, "harness_client"), endpoint.ToString());

            // Assert
            Assert.Contains("compute result=89 ", output, StringComparison.Ordinal);
            Assert.Contains("callThirdParty calls=3 ", output, StringComparison.Ordinal);
            Assert.Matches(@"callThirdParty fault code=\S+:Client reason=fanout must be between 1 and \d+ \(Workloads__MaxFanout\)", output);
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    private static bool IsOnPath(string tool) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Any(directory => File.Exists(Path.Combine(directory, tool)));

    /// <summary>Runs one step in <paramref name="directory"/>, bounded, and returns its output; fails the test when it fails.</summary>
    private static async Task<string> RunAsync(string directory, string program, params string[] arguments)
    {
        var start = new ProcessStartInfo(program)
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        Process process;
        try
        {
            process = Process.Start(start)!;
        }
        catch (Win32Exception e)
        {
            throw new InvalidOperationException($"{program} could not start ({e.Message}). {InstallHint}", e);
        }

        using (process)
        {
            var stdout = process.StandardOutput.ReadToEndAsync();
            var stderr = process.StandardError.ReadToEndAsync();
            using var bound = new CancellationTokenSource(StepBound);
            try
            {
                await process.WaitForExitAsync(bound.Token);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException($"{program} did not finish within {StepBound.TotalSeconds} s");
            }

            var output = await stdout + await stderr;
            Assert.True(process.ExitCode == 0, $"{program} {string.Join(' ', arguments)} exited with {process.ExitCode}: {output}");
            return output;
        }
    }
}
