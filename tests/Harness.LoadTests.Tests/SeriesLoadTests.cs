using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>The warm-up of a series: the profile's own first seconds, then the whole profile.</summary>
public sealed class SeriesLoadTests
{
    private static readonly TimeSpan S = TimeSpan.FromSeconds(1);

    [Fact]
    public void WarmUp_IsTheProfilesFirstSeconds_ThenTheWholeProfile_AsOneScenario()
    {
        var profile = LoadProfile.Load("quick").ToSimulations();

        var load = SeriesLoad.Create(profile, 10 * S);

        // quick: 4 users, +4 every 4 s; its first 10 s are 4 s of 4, 4 s of 8 and 2 s of 12.
        Assert.Equal(
            [new LoadSimulation.KeepConstant(4, 4 * S), new LoadSimulation.KeepConstant(8, 4 * S), new LoadSimulation.KeepConstant(12, 2 * S)],
            load.WarmUp);
        Assert.Equal([.. load.WarmUp, .. profile], load.Combined);
        Assert.False(load.WarmUpRunsApart);
        Assert.Equal(10, load.KnownWarmUpSeconds);
        Assert.Equal(30 * S, load.Duration);
    }

    [Fact]
    public void WarmUp_OfARamp_RampsToWhereTheProfileIsAtItsEnd()
    {
        var load = SeriesLoad.Create(LoadProfile.Load("constant").ToSimulations(), 4 * S);

        Assert.Equal([new LoadSimulation.RampingConstant(4, 4 * S)], load.WarmUp);
    }

    [Fact]
    public void WarmUp_OfAnOpenProfile_InjectsAtTheProfilesRate()
    {
        var load = SeriesLoad.Create(LoadProfile.Load("inject").ToSimulations(), 30 * S);

        var ramp = Assert.IsType<LoadSimulation.RampingInject>(Assert.Single(load.WarmUp));
        Assert.Equal(10, ramp.Rate);
        Assert.Equal(30 * S, ramp.During);
    }

    [Theory]
    [InlineData(0.2, 1)]
    [InlineData(1.0, 1)]
    [InlineData(1.5, 2)]
    [InlineData(2.5, 3)]
    public void WarmUp_IsRoundedUpToAWholeSecond_SoNoSecondHoldsBothWarmUpAndMeasuredRequests(double asked, double seconds)
    {
        var load = SeriesLoad.Create(LoadProfile.Load("constant").ToSimulations(), TimeSpan.FromSeconds(asked));

        Assert.Equal(seconds, load.KnownWarmUpSeconds);
    }

    [Fact]
    public void WarmUp_OfAScaledDefault_IsNotRoundedUpByAFloatingPointHair()
    {
        var load = SeriesLoad.Create(LoadProfile.Load("constant").ToSimulations(), MeasurementSettings.DefaultWarmUp * 0.1);

        Assert.Equal(1, load.KnownWarmUpSeconds);
    }

    [Fact]
    public void NoWarmUp_IsTheProfileAlone()
    {
        var profile = LoadProfile.Load("quick").ToSimulations();

        var load = SeriesLoad.Create(profile, TimeSpan.Zero);

        Assert.Empty(load.WarmUp);
        Assert.Equal(profile, load.Combined);
        Assert.Equal(0, load.KnownWarmUpSeconds);
    }

    [Fact]
    public void WarmUp_LongerThanTheProfile_IsTheWholeProfileOnce()
    {
        var profile = LoadProfile.Load("quick").ToSimulations();

        var load = SeriesLoad.Create(profile, 60 * S);

        Assert.Equal(profile, load.WarmUp);
        Assert.Equal(20, load.KnownWarmUpSeconds);
    }

    [Fact]
    public void WarmUp_OfABurst_IsOneWholeBurst_RunApart_ItsLengthRecordedOnceItEnds()
    {
        var burst = new LoadSimulation.IterationsForConstant(10, 1, TimeSpan.FromMinutes(5));

        var load = SeriesLoad.Create([burst], 10 * S);

        Assert.Equal([burst], load.WarmUp);
        Assert.Equal([burst], load.Profile);
        Assert.True(load.WarmUpRunsApart);
        Assert.Equal(0, load.KnownWarmUpSeconds);
    }
}
