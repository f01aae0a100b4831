using Harness.LoadTests.Commands;
using Harness.LoadTests.Containers;

namespace Harness.LoadTests.Tests.Containers;

/// <summary>Parsing of matrix's own options; no Docker needed.</summary>
public sealed class MatrixOptionsTests
{
    [Theory]
    [InlineData("kill@10s", "Kill", 10_000, null)]
    [InlineData("kill@1.5s+5s", "Kill", 1_500, 5_000)]
    [InlineData("PAUSE@2s+500ms", "Pause", 2_000, 500)]
    [InlineData("restart@1m", "Restart", 60_000, null)]
    public void Fault_ParsesKindTimeAndLength(string text, string kind, int atMs, int? lengthMs)
    {
        var plan = FaultPlan.Parse(text);

        // The kind by name: FaultKind is internal to the runner, and a public test method cannot take it.
        var expected = new FaultPlan(Enum.Parse<FaultKind>(kind), TimeSpan.FromMilliseconds(atMs), lengthMs is { } l ? TimeSpan.FromMilliseconds(l) : null);
        Assert.Equal(expected, plan);
    }

    [Theory]
    [InlineData("explode@1s", "kill, pause or restart")]
    [InlineData("kill", "give the time")]
    [InlineData("kill@soon", "give the time")]
    [InlineData("kill@1s+0s", "not a positive duration")]
    [InlineData("pause@1s", "a pause needs its length")]
    [InlineData("restart@1s+2s", "a restart has no length")]
    public void Fault_Invalid_SaysWhy(string text, string expected)
    {
        var ex = Assert.Throws<FormatException>(() => FaultPlan.Parse(text));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
        Assert.Contains($"'{text}'", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("512m", 512L << 20)]
    [InlineData("1g", 1L << 30)]
    [InlineData("65536k", 64L << 20)]
    [InlineData("1073741824", 1L << 30)]
    public void Memory_ReadsDockersSizeSyntax(string text, long bytes)
    {
        Assert.True(MatrixCommandOptions.TryParseBytes(text, out var parsed));
        Assert.Equal(bytes, parsed);
    }

    [Fact]
    public void Cpus_ByDefault_IsTwoOrThisMachinesCores_AndAsGivenOtherwise()
    {
        // --help and docs/cli.md show the default 2 on every machine; the cap to this machine's cores is the binding's.
        var options = new MatrixCommandOptions();
        var command = new System.CommandLine.RootCommand();
        options.AddTo(command);

        var (_, byDefault) = options.Bind(command.Parse([]), "harness matrix");
        var (_, given) = options.Bind(command.Parse(["--cpus", "0.5"]), "harness matrix --cpus 0.5");

        Assert.Equal(Math.Min(2.0, Environment.ProcessorCount), byDefault.Cpus);
        Assert.Equal(0.5, given.Cpus);
        Assert.Equal(2.0, options.Cpus.GetDefaultValue());
    }

    [Theory]
    [InlineData("--cpus=0", "--cpus must be between 0.1 and")]
    [InlineData("--memory=12q", "--memory '12q' must be a size of at least 64m")]
    [InlineData("--memory=1m", "at least 64m")]
    [InlineData("--fault=nap@1s", "kill, pause or restart")]
    [InlineData("--docker-host=ftp://x", "must be a unix:///path/to/docker.sock or tcp://host:port")]
    [InlineData("--target=soap=http://h:1", "matrix starts its own containers")]
    public async Task BadOption_ExitsWithCode2AndSaysWhy(string option, string expected)
    {
        var (exitCode, text) = await HarnessRun.InvokeAsync("matrix", option);

        Assert.Equal(2, exitCode);
        Assert.Contains(expected, text, StringComparison.Ordinal);
    }
}
