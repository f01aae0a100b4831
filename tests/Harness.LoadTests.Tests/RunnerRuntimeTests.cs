using Harness.LoadTests.Hosting;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>The runner's own runtime settings: inline socket completions unless whoever started it chose otherwise.</summary>
[Collection(nameof(RunnerRuntimeTests))]
[CollectionDefinition(nameof(RunnerRuntimeTests), DisableParallelization = true)]
public sealed class RunnerRuntimeTests
{
    [Theory]
    [InlineData(null, "1", "")]
    [InlineData("1", "1", "")]
    [InlineData("0", "0", "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=0")]
    public void Apply_TurnsInlineCompletionsOn_UnlessTheVariableWasSet_AndTheCommandLineNamesAChoiceOtherThanItsOwn(
        string? given, string expected, string expectedOverride)
    {
        // Arrange
        var before = Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions);
        Environment.SetEnvironmentVariable(ServiceEnvironment.InlineCompletions, given);
        try
        {
            // Act
            RunnerRuntime.Apply();

            // Assert
            Assert.Equal(expected, Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions));
            Assert.Equal(expectedOverride, string.Join(' ', RunnerRuntime.Overrides().Select(v => $"{v.Key}={v.Value}")));
            ThreadPool.GetMinThreads(out var workers, out var completionPorts);
            Assert.True(workers >= RunnerRuntime.MinThreads && completionPorts >= RunnerRuntime.MinThreads);
        }
        finally
        {
            Environment.SetEnvironmentVariable(ServiceEnvironment.InlineCompletions, before);
        }
    }
}
