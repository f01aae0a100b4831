using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;
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

    [Theory]
    [InlineData("10s", 10_000)]
    [InlineData("1500ms", 1500)]
    [InlineData("0", 0)]
    [InlineData("0s", 0)]
    public void WarmUp_AsWritten(string text, double milliseconds) =>
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), MeasurementOptions.ParseWarmUp(text));

    [Theory]
    [InlineData("-5s", "--warm-up '-5s' is negative; give 0 (no warm-up) or a duration such as 10s.")]
    [InlineData("soon", "--warm-up 'soon' is not a duration; write e.g. 10s, 1500ms or 1m, or 0 for no warm-up.")]
    [InlineData("2h", "--warm-up '2h' is longer than 1h")]
    public void WarmUp_Refused_SayingWhy(string text, string expected)
    {
        var ex = Assert.Throws<UsageException>(() => MeasurementOptions.ParseWarmUp(text));

        Assert.StartsWith(expected, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void WarmUp_ByDefault_Is10sScaledByTheTimeScale()
    {
        Assert.Equal(TimeSpan.FromSeconds(10), Bind("run").Measurement.WarmUp);
        Assert.Equal(TimeSpan.FromSeconds(1), Bind("run", "--time-scale", "0.1").Measurement.WarmUp);
    }

    [Fact]
    public void WarmUp_GivenExplicitly_IsNotScaled() =>
        Assert.Equal(TimeSpan.FromSeconds(4), Bind("run", "--time-scale", "0.1", "--warm-up", "4s").Measurement.WarmUp);

    [Theory]
    [InlineData("3s", 3000)]
    [InlineData("1500ms", 1500)]
    [InlineData("1ms", 1)]
    [InlineData("1h", 3_600_000)]
    [InlineData(" 2m ", 120_000)]
    public void Timeout_AsWritten(string text, double milliseconds) =>
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), MeasurementOptions.ParseTimeout(text));

    [Theory]
    [InlineData("0", "--timeout '0' is out of range: a call's timeout is from 1ms to 1h.")]
    [InlineData("0.5ms", "--timeout '0.5ms' is out of range: a call's timeout is from 1ms to 1h.")]
    [InlineData("61m", "--timeout '61m' is out of range: a call's timeout is from 1ms to 1h.")]
    [InlineData("-3s", "--timeout '-3s' is not a duration from 1ms to 1h; write e.g. 60s (the default), 3s or 1500ms.")]
    [InlineData("soon", "--timeout 'soon' is not a duration from 1ms to 1h; write e.g. 60s (the default), 3s or 1500ms.")]
    public void Timeout_Refused_NamingTheRange(string text, string expected)
    {
        var ex = Assert.Throws<UsageException>(() => MeasurementOptions.ParseTimeout(text));

        Assert.Equal(expected, ex.Message);
    }

    [Fact]
    public void Timeout_ByDefault_Is60s_AndNotScaledByTheTimeScale()
    {
        Assert.Equal(TimeSpan.FromSeconds(60), Bind("run").Measurement.CallTimeout);
        Assert.Equal(TimeSpan.FromSeconds(60), Bind("run", "--time-scale", "0.1").Measurement.CallTimeout);
        Assert.Equal(TimeSpan.FromSeconds(3), Bind("run", "--time-scale", "0.2", "--timeout", "3s").Measurement.CallTimeout);
    }

    [Fact]
    public void MaxMessageSize_ByDefault_Is4MiB()
    {
        Assert.Equal(4 * 1024 * 1024, Bind("run").Measurement.MaxMessageSize);
        Assert.Equal(1024, Bind("run", "--max-message-size", "1KiB").Measurement.MaxMessageSize);
    }

    [Theory]
    [InlineData("4MiB", 4 * 1024 * 1024)]
    [InlineData("1kib", 1024)]
    [InlineData("1GiB", 1 << 30)]
    [InlineData("64k", 64 * 1024)]
    [InlineData("16m", 16 * 1024 * 1024)]
    [InlineData("2048", 2048)]
    public void MaxMessageSize_AsWritten(string text, int bytes) => Assert.Equal(bytes, MeasurementOptions.ParseMaxMessageSize(text));

    [Theory]
    [InlineData("1023", "--max-message-size '1023' is out of range: the largest reply is from 1KiB to 1GiB (1,024 to 1,073,741,824 bytes).")]
    [InlineData("2GiB", "--max-message-size '2GiB' is out of range: the largest reply is from 1KiB to 1GiB (1,024 to 1,073,741,824 bytes).")]
    [InlineData("0", "--max-message-size '0' is out of range: the largest reply is from 1KiB to 1GiB (1,024 to 1,073,741,824 bytes).")]
    [InlineData("-4MiB", "--max-message-size '-4MiB' is not a size from 1KiB to 1GiB; write e.g. 4MiB (the default), 64KiB or 1048576 (bytes).")]
    [InlineData("4 MB", "--max-message-size '4 MB' is not a size from 1KiB to 1GiB; write e.g. 4MiB (the default), 64KiB or 1048576 (bytes).")]
    [InlineData("MiB", "--max-message-size 'MiB' is not a size from 1KiB to 1GiB; write e.g. 4MiB (the default), 64KiB or 1048576 (bytes).")]
    public void MaxMessageSize_Refused_NamingTheLimits(string text, string expected)
    {
        var ex = Assert.Throws<UsageException>(() => MeasurementOptions.ParseMaxMessageSize(text));

        Assert.Equal(expected, ex.Message);
    }

    [Fact]
    public async Task MaxMessageSize_Invalid_IsRefusedByTheCommand_WithExitCode2()
    {
        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--max-message-size", "512", "--output", HarnessRun.TempFolder());

        Assert.Equal(2, exitCode);
        Assert.Contains("--max-message-size '512' is out of range: the largest reply is from 1KiB to 1GiB", text, StringComparison.Ordinal);
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
