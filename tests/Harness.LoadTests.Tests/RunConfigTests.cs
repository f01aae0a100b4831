using System.CommandLine;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary><c>--config FILE</c> and the <c>run-config.json</c> every run writes: a run's options, repeatable from the file.</summary>
public sealed class RunConfigTests : IDisposable
{
    private readonly string _folder = HarnessRun.TempFolder();

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void EffectiveConfig_ReadBack_GivesTheSameOptions()
    {
        var typed = Bind(
            "--profile", "step", "--time-scale", "0.5", "--duration", "40s", "--users", "8", "--modes", "iocp,threadpool,iocp",
            "--stacks", "grpc", "--operations", "call-third-party", "--repeat", "2", "--iterations", "1000", "--fanout", "3",
            "--delay-ms", "5", "--style", "async", "--parallelism", "2", "--max-failures", "50", "--assert", "p99<100ms",
            "--assert", "errors<1%", "--output", "out", "--warm-up", "2s", "--backoff", "off", "--timeout", "3s", "--max-message-size", "64KiB", "--live");
        var file = Write("run-config.json", typed.EffectiveConfig!);

        var repeated = Bind("--config", file);

        Assert.Equal(typed.EffectiveConfig, repeated.EffectiveConfig);
        AssertSameRun(typed, repeated);
        Assert.Contains("\"timeout\": \"3s\"", typed.EffectiveConfig, StringComparison.Ordinal);
        Assert.Equal(TimeSpan.FromSeconds(3), repeated.Measurement.CallTimeout);
        Assert.Contains("\"maxMessageSize\": \"64KiB\"", typed.EffectiveConfig, StringComparison.Ordinal);
        Assert.Equal(64 * 1024, repeated.Measurement.MaxMessageSize);
        Assert.Contains("\"profile\": \"step\"", typed.EffectiveConfig, StringComparison.Ordinal);
    }

    [Fact]
    public void EffectiveConfigOfTargets_ReadBack_RunsTheSameTargets_AndKeepsAGivenModes()
    {
        string[] targets = ["--target", "grpc=http://a:1,mode=threadpool", "--target", "grpc=http://b:1,mode=iocp"];
        var all = Bind(targets);
        var picked = Bind([.. targets, "--modes", "iocp"]);

        var allAgain = Bind("--config", Write("all.json", all.EffectiveConfig!));
        var pickedAgain = Bind("--config", Write("picked.json", picked.EffectiveConfig!));

        Assert.DoesNotContain("\"modes\"", all.EffectiveConfig, StringComparison.Ordinal);
        Assert.Equal(["threadpool", "iocp"], allAgain.Modes);
        Assert.Equal(["iocp"], pickedAgain.Modes);
        Assert.Equal(["http://b:1/"], pickedAgain.Targets.Select(t => t.ServiceAddress.ToString()));
    }

    [Fact]
    public void EffectiveConfigOfACall_ReadBack_GivesTheSameCall()
    {
        var typed = Bind(
            "--target", "grpc=http://127.0.0.1:9", "--call", "helloworld.Greeter/SayHello", "--data", "{\"name\":\"{{uuid}}\"}",
            "--metadata", "x-api-key=k", "--proto", "greeter.proto", "--import-path", "protos");
        var file = Write("run-config.json", typed.EffectiveConfig!);

        var repeated = Bind("--config", file);

        Assert.Equal(typed.EffectiveConfig, repeated.EffectiveConfig);
        Assert.Equal(typed.CallRequest!.Template.Text, repeated.CallRequest!.Template.Text);
        Assert.Equal(["say-hello"], repeated.Operations);
        Assert.Equal(typed.CallRequest with { Template = repeated.CallRequest.Template, Metadata = repeated.CallRequest.Metadata, ImportPaths = repeated.CallRequest.ImportPaths }, repeated.CallRequest);
        Assert.Equal(typed.CallRequest.Metadata, repeated.CallRequest.Metadata);
        Assert.Equal(typed.CallRequest.ImportPaths, repeated.CallRequest.ImportPaths);
    }

    [Fact]
    public void AProfileFromAFile_IsEmbedded_SoTheConfigRepeatsItWithoutTheFile()
    {
        var profile = Write("mine.json", """{ "name": "mine", "description": "d", "stages": [ { "kind": "keepConstant", "copies": 3, "during": "7s" } ] }""");
        var typed = Bind("--profile", profile, "--time-scale", "2");
        var file = Write("run-config.json", typed.EffectiveConfig!);
        File.Delete(profile);

        var repeated = Bind("--config", file);

        Assert.Equal("mine", repeated.Profile.Name);
        Assert.Equal(TimeSpan.FromSeconds(14), repeated.Profile.Duration);
        AssertSameRun(typed, repeated);
    }

    [Fact]
    public void TheCommandLine_WinsOverTheFile_AndARepeatableOptionReplacesItsList()
    {
        var file = Write("c.json", """{ "timeScale": 0.5, "modes": ["iocp"], "assert": ["p99<1s", "errors<5%"], "stacks": "grpc" }""");

        var run = Bind("--config=" + file, "--modes=threadpool", "--assert", "errors<1%");

        Assert.Equal(0.5, run.TimeScale);
        Assert.Equal(["threadpool"], run.Modes);
        Assert.Equal(["grpc"], run.Stacks);
        Assert.Single(run.Thresholds);
        Assert.Contains("\"modes\": [\n    \"threadpool\"", run.EffectiveConfig!.ReplaceLineEndings("\n"), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{ "tiemScale": 1 }""", "unknown key \"tiemScale\"; valid keys are profile, timeScale, duration, users, rate, stacks, operations, modes, repeat, target, modeLabel,")]
    [InlineData("""{ "timeScale": "fast" }""", "key \"timeScale\" takes a number, not \"fast\"; Multiply every duration")]
    [InlineData("""{ "repeat": 1.5 }""", "key \"repeat\" takes a whole number or \"auto\" / \"auto:MAX\", not 1.5;")]
    [InlineData("""{ "modes": [1, 2] }""", "key \"modes\" takes an array of strings, not [1,2]; Scheduling modes to start locally, in order: threadpool, iocp, custompool")]
    [InlineData("""{ "live": "yes" }""", "key \"live\" takes true or false, not \"yes\";")]
    [InlineData("""{ "modes": ["fast"] }""", "key \"modes\" 'fast': valid values are threadpool, iocp, custompool.")]
    [InlineData("""{ "repeat": 50 }""", "key \"repeat\" must be between 1 and 20; got 50.")]
    [InlineData("""{ "fanout": 0 }""", "key \"fanout\": fanout must be between 1 and 64")]
    [InlineData("""{ "profile": "rampage" }""", "key \"profile\" 'rampage' is neither a built-in profile (quick, ramp, step, constant, inject, soak, burst, aa)")]
    [InlineData("""{ "profile": { "name": "x", "stages": [] } }""", "key \"profile\": Profile (inline): needs a name and at least one stage.")]
    [InlineData("""[ "quick" ]""", "must hold one JSON object")]
    [InlineData("""{ "profile": """, "is not JSON")]
    public async Task ABadFile_ExitsWithCode2_AndOneLineNamingTheKey(string json, string expected)
    {
        var file = Write("bad.json", json);
        var output = Path.Combine(_folder, "out");

        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--config", file, "--output", output);

        Assert.Equal(2, exitCode);
        var line = Assert.Single(text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
        Assert.StartsWith($"error: --config {file}: ", line, StringComparison.Ordinal);
        Assert.Contains(expected, line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task AMissingFile_ExitsWithCode2()
    {
        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--config", Path.Combine(_folder, "none.json"));

        Assert.Equal(2, exitCode);
        Assert.Contains("none.json: cannot be read", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ABadValueTyped_IsStillBlamedOnTheOption_NotOnTheFile()
    {
        var file = Write("c.json", """{ "repeat": 2 }""");

        var (exitCode, text) = await HarnessRun.InvokeAsync("run", "--config", file, "--repeat", "30", "--output", Path.Combine(_folder, "out"));

        Assert.Equal(2, exitCode);
        Assert.Contains("error: --repeat must be between 1 and 20; got 30.", text, StringComparison.Ordinal);
    }

    private static void AssertSameRun(RunOptions expected, RunOptions actual)
    {
        Assert.Equal(expected.Profile.ToJson(), actual.Profile.ToJson());
        Assert.Equal(expected.TimeScale, actual.TimeScale);
        Assert.Equal(expected.Stacks, actual.Stacks);
        Assert.Equal(expected.Operations, actual.Operations);
        Assert.Equal(expected.Modes, actual.Modes);
        Assert.Equal(expected.Repeat, actual.Repeat);
        Assert.Equal(expected.Settings, actual.Settings);
        Assert.Equal(expected.MaxFailures, actual.MaxFailures);
        Assert.Equal(expected.Thresholds.Select(t => t.ToString()), actual.Thresholds.Select(t => t.ToString()));
        Assert.Equal(expected.OutputDirectory, actual.OutputDirectory);
        Assert.Equal(expected.Measurement, actual.Measurement);
        Assert.Equal(expected.Live, actual.Live);
    }

    private static RunOptions Bind(params string[] args)
    {
        var options = new RunCommandOptions();
        var command = new RootCommand();
        options.AddTo(command);
        var parse = command.Parse(args);
        Assert.Empty(parse.Errors);
        return RunConfigFile.Bind(parse, options, p => options.Bind(p, "harness"));
    }

    private string Write(string name, string text)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, text);
        return path;
    }
}
