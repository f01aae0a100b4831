using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;

namespace Harness.LoadTests.Tests;

public sealed class LoadProfileTests
{
    [Theory]
    [MemberData(nameof(BuiltIns))]
    public void BuiltInProfiles_Load(string name)
    {
        var profile = LoadProfile.Load(name);

        Assert.Equal(name, profile.Name);
        Assert.NotEmpty(profile.ToSimulations());
    }

    public static TheoryData<string> BuiltIns() => [.. LoadProfile.BuiltInNames];

    [Fact]
    public void Ramp_IsExperimentS2s_FourUsersPlusFourEvery45sForEightMinutes()
    {
        var stages = LoadProfile.Load("ramp").ToSimulations();

        Assert.Equal(11, stages.Count);
        Assert.All(stages, s => Assert.IsType<LoadSimulation.KeepConstant>(s));
        Assert.Equal([4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44], stages.Cast<LoadSimulation.KeepConstant>().Select(s => s.Copies));
        Assert.Equal(TimeSpan.FromSeconds(45), stages[0].During);
        Assert.Equal(TimeSpan.FromSeconds(30), stages[^1].During);
        Assert.Equal(TimeSpan.FromMinutes(8), LoadProfile.Load("ramp").Duration);
    }

    [Fact]
    public void Scale_ShortensEveryDurationAndKeepsTheShape()
    {
        var scaled = LoadProfile.Load("ramp").Scale(0.1);

        Assert.Equal(TimeSpan.FromSeconds(48), scaled.Duration);
        Assert.Equal(11, scaled.ToSimulations().Count);
        Assert.Equal(TimeSpan.FromSeconds(4.5), scaled.ToSimulations()[0].During);
    }

    [Fact]
    public void Inject_IsAnOpenModelWhoseRateScales()
    {
        var profile = LoadProfile.Load("inject").WithPeakRate(50);

        Assert.True(profile.IsOpenModel);
        var stages = profile.ToSimulations();
        Assert.Equal(50, Assert.IsType<LoadSimulation.RampingInject>(stages[0]).Rate);
        Assert.Equal(TimeSpan.FromSeconds(1), Assert.IsType<LoadSimulation.Inject>(stages[1]).Interval);
    }

    [Fact]
    public void WithDuration_StretchesASoak()
    {
        var soak = LoadProfile.Load("soak").WithDuration(TimeSpan.FromHours(4));

        Assert.Equal(TimeSpan.FromHours(4), soak.Duration);
    }

    [Fact]
    public void WithPeakUsers_ScalesEveryStepToTheNewPeak()
    {
        var stages = LoadProfile.Load("ramp").WithPeakUsers(88).ToSimulations().Cast<LoadSimulation.KeepConstant>().ToList();

        Assert.Equal(8, stages[0].Copies);
        Assert.Equal(88, stages[^1].Copies);
    }

    [Fact]
    public void Burst_IsExperimentS0s_FiveCallsPerCoreAtOnce_EachMadeOnce()
    {
        var profile = LoadProfile.Load("burst");

        var burst = Assert.IsType<LoadSimulation.IterationsForConstant>(Assert.Single(profile.ToSimulations()));
        Assert.Equal(new LoadSimulation.IterationsForConstant(5 * Environment.ProcessorCount, 1, TimeSpan.FromMinutes(5)), burst);
        Assert.True(profile.HasBursts);
        Assert.False(profile.IsOpenModel);

        // The recorded definition says how many copies ran, not how they were computed.
        Assert.Contains($"\"copies\": {5 * Environment.ProcessorCount}", profile.ToJson(), StringComparison.Ordinal);
        Assert.DoesNotContain("copiesPerCore", profile.ToJson(), StringComparison.Ordinal);
    }

    [Fact]
    public void CopiesPerCore_IsResolvedForTheMachinesCores()
    {
        var json = "{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"copiesPerCore\": 5, \"iterations\": 3, \"during\": \"1m\" } ] }";

        var stages = LoadProfile.Parse(json, "test", cores: 8).ToSimulations();

        Assert.Equal([new LoadSimulation.IterationsForConstant(40, 3, TimeSpan.FromMinutes(1))], stages);
    }

    [Fact]
    public void Burst_UsersSetsItsCopies_AndTheTimeScaleItsUpperBound()
    {
        var stages = LoadProfile.Load("burst").WithPeakUsers(24).Scale(0.1).ToSimulations();

        Assert.Equal([new LoadSimulation.IterationsForConstant(24, 1, TimeSpan.FromSeconds(30))], stages);
    }

    [Fact]
    public void Burst_MixesWithOtherClosedStages()
    {
        var json = "{ \"name\": \"x\", \"stages\": [ { \"kind\": \"keepConstant\", \"copies\": 2, \"during\": \"5s\" }, { \"kind\": \"iterationsForConstant\", \"copies\": 10, \"iterations\": 1, \"during\": \"1m\" } ] }";

        var profile = LoadProfile.Parse(json, "test");

        Assert.False(profile.IsOpenModel);
        Assert.IsType<LoadSimulation.IterationsForConstant>(profile.ToSimulations()[1]);
        Assert.Equal(20, Assert.IsType<LoadSimulation.IterationsForConstant>(profile.WithPeakUsers(20).ToSimulations()[1]).Copies);
    }

    [Theory]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"iterations\": 1, \"during\": \"1m\" } ] }", "IterationsForConstant needs 'copies' (1 or more users) or 'copiesPerCore', and 'iterations'")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"copies\": 0, \"iterations\": 1, \"during\": \"1m\" } ] }", "IterationsForConstant needs 'copies' (1 or more users)")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"copies\": 5, \"during\": \"1m\" } ] }", "and 'iterations' (1 or more requests per user)")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"copies\": 5, \"iterations\": 0, \"during\": \"1m\" } ] }", "and 'iterations' (1 or more requests per user)")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"copies\": 5, \"iterations\": 1 } ] }", "'during' must be positive")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"copies\": 5, \"copiesPerCore\": 5, \"iterations\": 1, \"during\": \"1m\" } ] }", "give 'copies' or 'copiesPerCore', not both")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"inject\", \"copiesPerCore\": 5, \"rate\": 1, \"interval\": \"1s\", \"during\": \"1m\" } ] }", "'copiesPerCore' applies to RampingConstant, KeepConstant and IterationsForConstant, not Inject")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"iterationsForConstant\", \"copies\": 5, \"iterations\": 1, \"during\": \"1m\" }, { \"kind\": \"inject\", \"rate\": 2, \"interval\": \"1s\", \"during\": \"1s\" } ] }", "mixes closed-model stages")]
    public void Parse_RejectsInvalidBursts(string json, string expected)
    {
        var ex = Assert.Throws<ProfileException>(() => LoadProfile.Parse(json, "test"));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{ \"name\": \"x\", \"stages\": [] }", "needs a name and at least one stage")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"keepConstant\", \"during\": \"10s\" } ] }", "KeepConstant needs 'copies'")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"inject\", \"rate\": 5, \"during\": \"10s\" } ] }", "needs a positive 'interval'")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"keepConstant\", \"copies\": 2, \"during\": \"soon\" } ] }", "'soon' is not a duration")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"keepConstant\", \"copies\": 2, \"during\": \"1s\" }, { \"kind\": \"inject\", \"rate\": 2, \"interval\": \"1s\", \"during\": \"1s\" } ] }", "mixes closed-model stages")]
    [InlineData("{ \"name\": \"x\", \"stages\": [ { \"kind\": \"warp\", \"during\": \"1s\" } ] }", "Profile test")]
    public void Parse_RejectsInvalidProfilesWithAClearMessage(string json, string expected)
    {
        var ex = Assert.Throws<ProfileException>(() => LoadProfile.Parse(json, "test"));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Load_UnknownName_ListsTheBuiltInProfiles()
    {
        var ex = Assert.Throws<ProfileException>(() => LoadProfile.Load("rampage"));

        Assert.Contains("quick, ramp, step, constant, inject, soak, burst, aa", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("1500ms", 1500)]
    [InlineData("45s", 45_000)]
    [InlineData("8m", 480_000)]
    [InlineData("2h", 7_200_000)]
    [InlineData("00:01:30", 90_000)]
    public void Durations_ParseInEveryAcceptedForm(string text, double milliseconds)
    {
        Assert.True(DurationJsonConverter.TryParse(text, out var value));
        Assert.Equal(milliseconds, value.TotalMilliseconds);
    }
}
