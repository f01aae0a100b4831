using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;

namespace Harness.LoadTests.Tests;

/// <summary>Bad input stops the command before any load, with the option and its valid values in the message.</summary>
public sealed class CommandLineTests
{
    [Theory]
    [InlineData("--modes=fast", "--modes 'fast': valid values are threadpool, iocp, custompool.")]
    [InlineData("--stacks=rest", "--stacks 'rest': valid values are soap, grpc.")]
    [InlineData("--operations=sleep", "--operations 'sleep': valid values are compute, call-third-party.")]
    [InlineData("--profile=rampage", "is neither a built-in profile (quick, ramp, step, constant, inject, soak, burst, aa)")]
    [InlineData("--time-scale=0", "--time-scale must be a positive number; got 0.")]
    [InlineData("--duration=soon", "--duration 'soon' is not a duration")]
    [InlineData("--rate=5", "--rate applies to open-model profiles")]
    [InlineData("--fanout=0", "fanout must be between 1 and 64")]
    [InlineData("--style=nap", "style must be one of: blocking, async, thread-sleep, task-wait, task-delay; got 'nap'.")]
    [InlineData("--max-failures=0", "--max-failures must be 1 or more; got 0.")]
    [InlineData("--repeat=0", "--repeat must be between 1 and 20; got 0.")]
    [InlineData("--repeat=21", "--repeat must be between 1 and 20; got 21.")]
    [InlineData("--repeat=auto:3", "--repeat auto:3: valid: a whole number 1–20, auto, or auto:MAX with MAX even, 2–20")]
    [InlineData("--repeat=auto:22", "--repeat auto:22: valid:")]
    [InlineData("--repeat=often", "--repeat must be between 1 and 20; got often. Or auto, or auto:MAX (MAX even, 2–20).")]
    [InlineData("--target=rest=http://h:1", "--target 'rest=http://h:1' must look like")]
    [InlineData("--warm-up=-1s", "--warm-up '-1s' is negative")]
    [InlineData("--warm-up=later", "--warm-up 'later' is not a duration")]
    [InlineData("--backoff=fast", "--backoff 'fast': write INITIAL..MAX with durations, e.g. 100ms..2s (the default), or off.")]
    [InlineData("--backoff=2s..100ms", "--backoff '2s..100ms': INITIAL must be above 0 and MAX between INITIAL and 1m")]
    [InlineData("--backoff=0s..1s", "--backoff '0s..1s': INITIAL must be above 0")]
    [InlineData("--backoff=1s..2h", "MAX between INITIAL and 1m")]
    [InlineData("--timeout=0", "--timeout '0' is out of range: a call's timeout is from 1ms to 1h.")]
    [InlineData("--timeout=never", "--timeout 'never' is not a duration from 1ms to 1h")]
    [InlineData("--runtime-events=maybe", "--runtime-events 'maybe': valid values are on, off.")]
    [InlineData("--target=grpc=http://h:1,pid=x", "pid=PID (a .NET process to attach to over EventPipe)")]
    [InlineData("--metrics-port=0", "--metrics-port 0: a port is 1 to 65535, e.g. 9464.")]
    [InlineData("--metrics-port=65536", "--metrics-port 65536: a port is 1 to 65535, e.g. 9464.")]
    public async Task Run_WithBadInput_ExitsWithCode2AndSaysWhy(string option, string expected)
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync("run", option, "--output", output);

        Assert.Equal(2, exitCode);
        Assert.Contains(expected, text, StringComparison.Ordinal);
        Assert.Empty(Directory.GetDirectories(output));
    }

    [Fact]
    public async Task RepeatAuto_WithOneModeListedOnce_ExitsWithCode2_AndSaysHowToMakeAComparison()
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--repeat", "auto", "--modes", "iocp", "--output", output);

        Assert.Equal(2, exitCode);
        Assert.Contains("--repeat auto settles comparisons, and iocp alone gives none: give two modes or more, or one mode twice for an A/A run (e.g. --modes iocp,iocp).", text, StringComparison.Ordinal);
        Assert.Empty(Directory.GetDirectories(output));
    }

    [Theory]
    [InlineData(new string[0], "harness run")]
    [InlineData(new[] { "--modes", "iocp" }, "harness run --modes iocp")]
    [InlineData(new[] { "run", "--modes", "iocp" }, "harness run --modes iocp")]
    [InlineData(new[] { "calibrate", "--stacks", "soap" }, "harness calibrate --stacks soap")]
    public void CommandLine_AsTheReportShowsIt_NamesTheCommandThatRan(string[] args, string expected)
    {
        var parse = HarnessCli.Create(Spectre.Console.AnsiConsole.Console).Parse(args);

        Assert.Equal(expected, HarnessCli.CommandLine(parse, []));
    }

    [Theory]
    [InlineData(new[] { "--time-scale", "abc" }, "error: --time-scale 'abc': takes a number; Multiply every duration")]
    [InlineData(new[] { "run", "--users", "many" }, "error: --users 'many': takes a whole number; Scale a closed-model profile")]
    [InlineData(new[] { "run", "--profile" }, "error: --profile needs a value: Load profile: quick, ramp")]
    [InlineData(new[] { "matrix", "--cpus" }, "error: --cpus needs a number: CPU limit")]
    [InlineData(new[] { "run", "--time-scale", "0.25", "--time-scale", "0.5" }, "error: --time-scale is given 2 values ('0.25', '0.5'); it takes one: Multiply every duration")]
    [InlineData(new[] { "run", "--bogus" }, "error: unknown option '--bogus' for harness run; `harness run --help` lists what it takes.")]
    [InlineData(new[] { "report" }, "error: harness report needs RUN: A run folder")]
    public async Task UnparsableCommandLine_ExitsWithCode2_AndOneLineNamingTheOptionAndWhatItTakes(string[] args, string expected)
    {
        var (exitCode, text) = await HarnessRun.InvokeAsync(args);

        Assert.Equal(2, exitCode);
        var line = Assert.Single(text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
        Assert.StartsWith(expected, line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false, null, true)]
    [InlineData(false, "", true)]
    [InlineData(false, "1", false)]
    [InlineData(true, null, false)]
    public void Colour_OnlyOnATerminal_WithoutNoColor(bool redirected, string? noColor, bool expected) =>
        Assert.Equal(expected, Terminal.UseColour(redirected, noColor));

    [Theory]
    [InlineData(false, null, true)]
    [InlineData(false, "false", true)]
    [InlineData(false, "true", false)]
    [InlineData(true, null, false)]
    public void ProgressLineRewrittenInPlace_OnlyOnATerminalOutsideCi(bool redirected, string? ci, bool expected) =>
        Assert.Equal(expected, Terminal.IsInteractive(redirected, ci));

    [Fact]
    public async Task Report_OfAFolderThatIsNotARun_ExitsWithCode2()
    {
        var (exitCode, text) = await HarnessRun.InvokeAsync("report", "/nonexistent/run");

        Assert.Equal(2, exitCode);
        Assert.Contains("is not a run folder", text, StringComparison.Ordinal);
    }
}
