using Google.Protobuf;
using Google.Protobuf.Reflection;
using Harness.Contracts.Grpc;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Tests.WriterTest;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>
/// The JSON-to-protobuf writer, over descriptors built from their serialized form as reflection gives them (no
/// generated type behind them), against the generated types of the same .proto files: the same JSON must give the
/// bytes of the generated message's <c>ToByteArray()</c>.
/// </summary>
public sealed class ProtoJsonWriterTests
{
    private static readonly JsonParser Oracle = new(JsonParser.Settings.Default.WithTypeRegistry(TypeRegistry.FromMessages(AllTypes.Descriptor)));

    [Fact]
    public void ComputeRequest_IsWrittenAsTheGeneratedTypeWritesIt()
    {
        var method = FromBytes([ComputeRequest.Descriptor.File], "harness.v1.HarnessService/Compute");

        var bytes = Writer(method).Encode(method.Input, """{"iterations":5000000}""");

        Assert.Equal(new ComputeRequest { Iterations = 5_000_000 }.ToByteArray(), bytes);
    }

    [Theory]
    [InlineData("""{"fanout":4,"delayMs":1000,"style":"task-delay","parallelism":2}""")]
    [InlineData("""{"parallelism":2,"style":"task-delay","delay_ms":1000,"fanout":4}""")]
    public void CallThirdPartyRequest_ByJsonOrProtoNames_InAnyOrder_IsWrittenInFieldOrder(string json)
    {
        var method = FromBytes([CallThirdPartyRequest.Descriptor.File], "harness.v1.HarnessService/CallThirdParty");

        var bytes = Writer(method).Encode(method.Input, json);

        Assert.Equal(new CallThirdPartyRequest { Fanout = 4, DelayMs = 1000, Style = "task-delay", Parallelism = 2 }.ToByteArray(), bytes);
    }

    [Theory]
    [InlineData("""{"aDouble":1.5,"aFloat":-2.25,"anInt32":-7,"anInt64":"-9007199254740993","aUint32":4000000000,"aUint64":"18446744073709551615","aSint32":-3,"aSint64":"-5","aFixed32":7,"aFixed64":"8","anSfixed32":-9,"anSfixed64":"-10","aBool":true,"aString":"héllo","someBytes":"AQID","colour":"GREEN"}""")]
    [InlineData("""{"inner":{"label":"x","count":"3"},"numbers":[1,-2,300],"words":["a","","c"],"inners":[{"label":"a"},{}],"colours":["RED",2],"reals":[0.5,"NaN","-Infinity"]}""")]
    [InlineData("""{"counts":{"a":1,"b":0},"byId":{"5":{"label":"five"},"0":{}},"flags":{"true":"yes","false":""}}""")]
    [InlineData("""{"chosenInner":{"count":1},"maybe":0,"at":"2024-02-29T12:00:00.500Z","took":"1.5s","wrapped":0,"settings":{"k":[1,"two",null,true,{"x":{}}]}}""")]
    [InlineData("""{"extra":{"@type":"type.googleapis.com/writertest.Inner","label":"packed","count":"2"}}""")]
    [InlineData("""{"extra":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"2s"}}""")]
    [InlineData("""{"a_string":"snake","an_int32":5,"chosen_text":"t"}""")]
    [InlineData("""{"anInt32":0,"aString":"","aBool":false,"colour":"COLOUR_UNSPECIFIED","inner":{},"numbers":[],"counts":{}}""")]
    [InlineData("""{"aString":null,"inner":null,"anInt32":1e3,"aUint64":12.0}""")]
    public void EveryKindOfField_IsWrittenAsTheGeneratedTypeWritesIt(string json)
    {
        var method = FromBytes([.. AllTypes.Descriptor.File.Dependencies, AllTypes.Descriptor.File], "writertest.WriterTest/Echo");

        var bytes = Writer(method).Encode(method.Input, json);

        Assert.Equal(Oracle.Parse<AllTypes>(json).ToByteArray(), bytes);
    }

    [Theory]
    [InlineData("""{"anInt32":5,"aString":"s","customLabel":"c"}""", """{"an_int32":5,"a_string":"s","custom_name":"c"}""")]
    [InlineData("""{"inner":{"orderId":"7","label":"x"},"chosenInner":{"orderId":"8"}}""", """{"inner":{"order_id":7,"label":"x"},"chosen_inner":{"order_id":"8"}}""")]
    [InlineData("""{"inners":[{"orderId":"1"},{"orderId":"2"}],"someBytes":"AQ=="}""", """{"inners":[{"order_id":"1"},{"order_id":"2"}],"some_bytes":"AQ=="}""")]
    [InlineData("""{"byId":{"5":{"orderId":"9"}},"counts":{"a":1}}""", """{"by_id":{"5":{"order_id":"9"}},"counts":{"a":1}}""")]
    [InlineData("""{"extra":{"@type":"type.googleapis.com/writertest.Inner","orderId":"3"}}""", """{"extra":{"@type":"type.googleapis.com/writertest.Inner","order_id":"3"}}""")]
    public void SnakeCaseProtoNames_AndJsonNames_GiveTheSameBytes(string byJsonNames, string byProtoNames)
    {
        var method = FromBytes([.. AllTypes.Descriptor.File.Dependencies, AllTypes.Descriptor.File], "writertest.WriterTest/Echo");

        var fromJsonNames = Writer(method).Encode(method.Input, byJsonNames);
        var fromProtoNames = Writer(method).Encode(method.Input, byProtoNames);

        Assert.Equal(Oracle.Parse<AllTypes>(byJsonNames).ToByteArray(), fromJsonNames);
        Assert.NotEmpty(fromJsonNames);
        Assert.Equal(fromJsonNames, fromProtoNames);
    }

    [Theory]
    [InlineData("""{"aStrin":"x"}""", "writertest.AllTypes has no field 'aStrin'; its fields are aDouble (a_double), aFloat (a_float)")]
    [InlineData("""{"aStrin":"x"}""", "colour, inner, numbers, words, inners, colours, counts, byId (by_id), ")]
    [InlineData("""{"aStrin":"x"}""", "flags, customLabel (custom_name)")]
    [InlineData("""{"inner":{"order":1}}""", "inner: writertest.Inner has no field 'order'; its fields are label, count, orderId (order_id)")]
    [InlineData("""{"anInt32":1,"an_int32":2}""", "field 'anInt32' is given twice, as 'anInt32' and as 'an_int32' (its JSON name and its proto name): give one")]
    [InlineData("""{"inners":[{"order_id":1,"orderId":2}]}""", "field 'inners[0].orderId' is given twice, as 'order_id' and as 'orderId'")]
    [InlineData("""{"customLabel":"a","custom_name":"b"}""", "field 'customLabel' is given twice, as 'customLabel' and as 'custom_name'")]
    [InlineData("""{"aBool":true,"aBool":false}""", "field 'aBool' is given twice (as 'aBool')")]
    [InlineData("""{"aBool":"yes"}""", "field 'aBool' takes a bool (true or false), not the string \"yes\"")]
    [InlineData("""{"anInt32":2147483648}""", "field 'anInt32' takes an int32 (-2147483648 to 2147483647), not the number 2147483648")]
    [InlineData("""{"anInt32":1.5}""", "field 'anInt32' takes an int32, not the number 1.5")]
    [InlineData("""{"inners":[{},{"lable":"x"}]}""", "inners[1]: writertest.Inner has no field 'lable'; its fields are label, count")]
    [InlineData("""{"chosenText":"a","chosenInner":{}}""", "'chosenText' and 'chosenInner' are both of the oneof 'choice'; give one")]
    [InlineData("""{"numbers":5}""", "field 'numbers' is a repeated field: give a JSON array, not the number 5")]
    [InlineData("""{"byId":{"x":{}}}""", "field 'byId[\"x\"]' takes an int32, not the string \"x\"")]
    [InlineData("""{"took":"soon"}""", "field 'took' is not a valid google.protobuf.Duration")]
    [InlineData("""{"extra":{"@type":"type.googleapis.com/nowhere.Thing"}}""", "field 'extra' names the type 'nowhere.Thing', which the service's descriptors do not define")]
    [InlineData("""[1]""", "the message is a writertest.AllTypes message: give a JSON object, not an array")]
    public void JsonThatDoesNotFit_IsRefused_NamingTheField(string json, string expected)
    {
        var method = FromBytes([.. AllTypes.Descriptor.File.Dependencies, AllTypes.Descriptor.File], "writertest.WriterTest/Echo");

        var refusal = Assert.Throws<CallSetupException>(() => Writer(method).Encode(method.Input, json));

        Assert.Contains(expected, refusal.Message, StringComparison.Ordinal);
    }

    /// <summary>The method as a server's reflection would describe it: its files' bytes, no generated types.</summary>
    private static GrpcMethod FromBytes(IEnumerable<FileDescriptor> files, string call) =>
        GrpcMethod.Find(files.Reverse().Select(f => f.SerializedData), call, "the test's descriptors");

    private static ProtoJsonWriter Writer(GrpcMethod method) => new(method.Registry);
}
