using Harness.LoadTests.Cli;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Tests;

/// <summary>How series are measured, as the command line sets it.</summary>
public sealed class MeasurementOptionsTests
{
    [Theory]
    [InlineData("100ms..2s", 100, 2000)]
    [InlineData("1s..1s", 1000, 1000)]
    [InlineData(" 50ms .. 500ms ", 50, 500)]
    public void Backoff_InitialAndMax(string text, double initialMs, double maxMs)
    {
        var backoff = MeasurementOptions.ParseBackoff(text);

        Assert.Equal(new FailureBackoff(TimeSpan.FromMilliseconds(initialMs), TimeSpan.FromMilliseconds(maxMs)), backoff);
    }

    [Theory]
    [InlineData("off")]
    [InlineData("OFF")]
    public void Backoff_Off_IsNone(string text) => Assert.Null(MeasurementOptions.ParseBackoff(text));

    [Theory]
    [InlineData("")]
    [InlineData("2s")]
    [InlineData("..2s")]
    [InlineData("1s..")]
    [InlineData("-1s..2s")]
    [InlineData("0ms..2s")]
    [InlineData("3s..2s")]
    [InlineData("1s..2m")]
    public void Backoff_Refused(string text) => Assert.Throws<UsageException>(() => MeasurementOptions.ParseBackoff(text));

    [Fact]
    public void Run_WithoutBackoff_UsesTheEnginesDefault()
    {
        var options = Bind("run");

        Assert.Equal(new FailureBackoff(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(2)), options.Measurement.Backoff);
    }

    [Fact]
    public void Run_WithBackoffOff_RetriesAtOnce()
    {
        var options = Bind("run", "--backoff", "off");

        Assert.Null(options.Measurement.Backoff);
    }

    /// <summary>The options <c>harness</c> would run with.</summary>
    internal static Running.RunOptions Bind(params string[] args)
    {
        var command = new System.CommandLine.Command("run");
        var options = new RunCommandOptions();
        options.AddTo(command);
        var parse = command.Parse(args[1..]);
        Assert.Empty(parse.Errors);
        return options.Bind(parse, "harness " + string.Join(' ', args));
    }
}
