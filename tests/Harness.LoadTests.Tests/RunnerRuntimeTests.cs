using System.Collections;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>The runner's own runtime settings, and the report's command line naming one chosen by whoever started it.</summary>
[Collection(nameof(RunnerRuntimeTests))]
[CollectionDefinition(nameof(RunnerRuntimeTests), DisableParallelization = true)]
public sealed class RunnerRuntimeTests
{
    [Theory]
    [InlineData(null, "")]
    [InlineData("0", "")]
    [InlineData("1", "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1")]
    public void Apply_LeavesInlineCompletionsAsGiven_AndTheCommandLineNamesThemWhenOn(string? given, string expectedOverride)
    {
        // Arrange
        var before = Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions);
        Environment.SetEnvironmentVariable(ServiceEnvironment.InlineCompletions, given);
        try
        {
            // Act
            RunnerRuntime.Apply();

            // Assert
            Assert.Equal(given, Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions));
            Assert.Equal(expectedOverride, string.Join(' ', RunnerRuntime.Overrides().Select(v => $"{v.Key}={v.Value}")));
            ThreadPool.GetMinThreads(out var workers, out var completionPorts);
            Assert.True(workers >= RunnerRuntime.MinThreads && completionPorts >= RunnerRuntime.MinThreads);
        }
        finally
        {
            Environment.SetEnvironmentVariable(ServiceEnvironment.InlineCompletions, before);
        }
    }

    [Fact]
    public async Task LocalService_DoesNotInheritTheRunnersInlineCompletions_UnlessGivenThemAsAServiceVariable()
    {
        // Arrange: the runner was given the switch (in its environment, which this process stands in for).
        var before = Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions);
        Environment.SetEnvironmentVariable(ServiceEnvironment.InlineCompletions, "1");
        try
        {
            // Act
            await using var plain = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", [], CancellationToken.None, []);
            await using var given = await LocalProcess.StartAsync(
                "grpc", "Harness.GrpcService", [], CancellationToken.None,
                ServiceEnvironment.From(new Hashtable { ["HARNESS_SERVICE_" + ServiceEnvironment.InlineCompletions] = "1" }));

            // Assert: read from the service process itself.
            Assert.DoesNotContain(ServiceEnvironment.InlineCompletions + "=1", EnvironmentOf(plain));
            Assert.Contains(ServiceEnvironment.InlineCompletions + "=1", EnvironmentOf(given));
        }
        finally
        {
            Environment.SetEnvironmentVariable(ServiceEnvironment.InlineCompletions, before);
        }
    }

    // The environment of the dotnet process listening on the service's port (LocalProcess starts it under a watchdog shell).
    private static List<string> EnvironmentOf(LocalProcess service)
    {
        var marker = $"--Listen:Port={service.Address.Port}";
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            try
            {
                var commandLine = File.ReadAllText(Path.Combine(directory, "cmdline")).Split('\0');
                if (commandLine.Contains(marker) && commandLine[0].EndsWith("dotnet", StringComparison.Ordinal))
                {
                    return [.. File.ReadAllText(Path.Combine(directory, "environ")).Split('\0')];
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // A process that ended while the directory was read.
            }
        }

        throw new InvalidOperationException($"no dotnet process with {marker}");
    }
}
