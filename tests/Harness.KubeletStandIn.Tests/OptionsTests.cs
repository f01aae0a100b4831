using Harness.KubeletStandIn.Cli;

namespace Harness.KubeletStandIn.Tests;

public sealed class OptionsTests
{
    [Fact]
    public void Parse_ReadsEveryOption_InBothSpellings()
    {
        var options = Options.Parse(["soak", "--output", "/tmp/o", "--agents=4", "--duration", "90s", "--runner-arg=--modes=iocp", "--runner-arg", "--x", "--timeout=5m", "--keep"]);
        Assert.Equal("soak", options.Overlay);
        Assert.Equal("/tmp/o", options.Output);
        Assert.Equal(4, options.Agents);
        Assert.Equal("90s", options.Duration);
        Assert.Equal(["--modes=iocp", "--x"], options.RunnerArgs);
        Assert.Equal(TimeSpan.FromMinutes(5), options.Timeout);
        Assert.True(options.Keep);
    }

    [Theory]
    [InlineData("--agents=0", "--agents '0' is not valid; give a whole number of 1 or more")]
    [InlineData("--agents=x", "--agents 'x' is not valid")]
    [InlineData("--duration=4 hours", "--duration '4 hours' is not a duration; valid: a whole number with ms, s, m or h")]
    [InlineData("--timeout=0s", "--timeout '0s' is not a duration")]
    [InlineData("--runner-arg=", "--runner-arg needs a non-empty value")]
    [InlineData("--bogus", "unknown option '--bogus'; valid: --output DIR, --agents N")]
    [InlineData("second", "one OVERLAY only")]
    public void Parse_RefusesBadInput_NamingTheValidValues(string bad, string message)
    {
        var error = Assert.Throws<UsageException>(() => Options.Parse(["soak", "--output", "/tmp/o", bad]));
        Assert.StartsWith(message, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void Parse_NeedsAnOverlayAndAnOutput()
    {
        Assert.StartsWith("OVERLAY is missing", Assert.Throws<UsageException>(() => Options.Parse(["--output", "o"])).Message, StringComparison.Ordinal);
        Assert.StartsWith("--output DIR is missing", Assert.Throws<UsageException>(() => Options.Parse(["soak"])).Message, StringComparison.Ordinal);
        Assert.StartsWith("--agents needs a value", Assert.Throws<UsageException>(() => Options.Parse(["soak", "--agents"])).Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("90s", 90)]
    [InlineData("45m", 2700)]
    [InlineData("5h", 18000)]
    [InlineData("1500ms", 1.5)]
    [InlineData("30", 30)]
    public void Durations_ReadTheScriptsForms(string text, double seconds)
    {
        Assert.True(Durations.TryParse(text, out var value));
        Assert.Equal(seconds, value.TotalSeconds);
    }
}
