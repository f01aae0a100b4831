using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Tests;

public sealed class TargetParsingTests
{
    [Fact]
    public void Soap_IsScrapedAtItsOwnAddress()
    {
        var target = ExternalTargets.Parse("soap=http://10.0.0.5:5081", "k8s-iocp");

        Assert.Equal(new ServiceTarget("soap", "k8s-iocp", new Uri("http://10.0.0.5:5081"), new Uri("http://10.0.0.5:5081")) { MetricsGuessed = true }, target);
    }

    [Fact]
    public void MetricsGiven_IsNotAGuess()
    {
        Assert.False(ExternalTargets.Parse("grpc=http://host:5082,metrics=http://host:9000", "x").MetricsGuessed);
    }

    [Fact]
    public void Soap_IsScrapedWhereMetricsSays()
    {
        // compose, matrix and Kubernetes point it at the service's Listen__MetricsPort, which a starved pool cannot silence.
        var target = ExternalTargets.Parse("soap=http://soap-iocp:5081,metrics=http://soap-iocp:5084,mode=iocp", "x");

        Assert.Equal(new ServiceTarget("soap", "iocp", new Uri("http://soap-iocp:5081"), new Uri("http://soap-iocp:5084")), target);
    }

    [Fact]
    public void Grpc_IsScrapedAtTheNextPortUnlessToldOtherwise()
    {
        Assert.Equal(new Uri("http://host:5083"), ExternalTargets.Parse("grpc=http://host:5082", "x").MetricsAddress);
        Assert.Equal(new Uri("http://host:9000"), ExternalTargets.Parse("grpc=http://host:5082,metrics=http://host:9000", "x").MetricsAddress);
    }

    [Fact]
    public void Mode_OfATarget_OverridesTheLabel()
    {
        var target = ExternalTargets.Parse("grpc=http://grpc-iocp:5082,mode=iocp,metrics=http://grpc-iocp:5083", "external");

        Assert.Equal(new ServiceTarget("grpc", "iocp", new Uri("http://grpc-iocp:5082"), new Uri("http://grpc-iocp:5083")), target);
    }

    [Theory]
    [InlineData("soap=http://h:1,mode=")]
    [InlineData("soap=http://h:1,mode=a/b")]
    [InlineData("rest=http://host:1")]
    [InlineData("grpc=host:5082")]
    [InlineData("grpc")]
    [InlineData("grpc=http://host:5082,admin=http://host:1")]
    [InlineData("soap=http://host:5081,metrics=host:5084")]
    public void Invalid_SaysWhatIsAccepted(string value)
    {
        var ex = Assert.Throws<FormatException>(() => ExternalTargets.Parse(value, "x"));

        Assert.Contains($"'{value}'", ex.Message, StringComparison.Ordinal);
    }
}
