using Google.Protobuf;
using Grpc.Core;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Tests.WriterTest;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>A streaming method's shape from its descriptors, and its request messages from <c>--data</c>: an array is a stream of them.</summary>
public sealed class StreamRequestTests
{
    [Theory]
    [InlineData("writertest.WriterTest/Echo", MethodType.Unary, "unary", false)]
    [InlineData("writertest.WriterTest/Listen", MethodType.ServerStreaming, "server-streaming", false)]
    [InlineData("writertest.WriterTest/Gather", MethodType.ClientStreaming, "client-streaming", true)]
    [InlineData("writertest.WriterTest/EchoMany", MethodType.DuplexStreaming, "bidirectional", true)]
    public void EveryShapeIsFound_WithWhetherItStreamsRequests(string call, MethodType type, string shape, bool streamsRequests)
    {
        var method = Find(call);

        Assert.Equal((type, shape, streamsRequests), (method.Type, method.Shape, method.StreamsRequests));
    }

    [Fact]
    public void AnArray_IsAStreamOfMessages_EachWrittenAsTheGeneratedTypeWritesIt_AndALoneObjectAStreamOfOne()
    {
        // Arrange
        var method = Find("writertest.WriterTest/EchoMany");
        var writer = new ProtoJsonWriter(method.Registry);

        // Act
        var many = RequestStream.Unpack(writer.EncodeStream(method.Input, """[{"an_int32":1},{"aString":"b"},{}]"""));
        var one = RequestStream.Unpack(writer.EncodeStream(method.Input, """{"anInt32":7}"""));
        var none = RequestStream.Unpack(writer.EncodeStream(method.Input, "[]"));

        // Assert
        Assert.Equal(
            [new AllTypes { AnInt32 = 1 }.ToByteArray(), new AllTypes { AString = "b" }.ToByteArray(), []],
            many);
        Assert.Equal([new AllTypes { AnInt32 = 7 }.ToByteArray()], one);
        Assert.Empty(none);
    }

    [Fact]
    public void AnElementThatDoesNotFit_IsRefused_NamingItsPlaceInTheArray()
    {
        var method = Find("writertest.WriterTest/Gather");

        var error = Assert.Throws<CallSetupException>(() => new ProtoJsonWriter(method.Registry).EncodeStream(method.Input, """[{},{"anInt32":"x"},3]"""));

        Assert.Contains("[1].anInt32", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void PackedMessages_UnpackAsTheyWere_AndBytesCutShort_AreRefused()
    {
        byte[][] messages = [[1, 2, 3], [], [.. Enumerable.Repeat((byte)9, 70_000)]];

        var packed = RequestStream.Pack(messages);

        Assert.Equal(messages, RequestStream.Unpack(packed));
        Assert.Equal(12 + 3 + 70_000, packed.Length);
        Assert.Throws<ArgumentException>(() => RequestStream.Unpack(packed[..^1]));
        Assert.Throws<ArgumentException>(() => RequestStream.Unpack([0, 0]));
    }

    private static GrpcMethod Find(string call) =>
        GrpcMethod.Find(AllTypes.Descriptor.File.Dependencies.Append(AllTypes.Descriptor.File).Select(f => f.SerializedData), call, "the test's descriptors");
}
