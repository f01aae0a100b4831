using System.Xml;
using System.Xml.Schema;

namespace Harness.Rpc.Soap;

/// <summary>The named types a schema object refers to, anywhere inside it (element and attribute types, bases, list items, unions).</summary>
internal static class SchemaReferences
{
    public static IEnumerable<XmlQualifiedName> TypesOf(XmlSchemaObject? item) => item switch
    {
        XmlSchemaElement element => Named(element.SchemaTypeName).Concat(TypesOf(element.SchemaType)),
        XmlSchemaAttribute attribute => Named(attribute.SchemaTypeName).Concat(TypesOf(attribute.SchemaType)),
        XmlSchemaComplexType complex => TypesOf(complex.ContentModel).Concat(TypesOf(complex.Particle)).Concat(All(complex.Attributes)),
        XmlSchemaComplexContent content => TypesOf(content.Content),
        XmlSchemaSimpleContent content => TypesOf(content.Content),
        XmlSchemaComplexContentExtension extension => Named(extension.BaseTypeName).Concat(TypesOf(extension.Particle)).Concat(All(extension.Attributes)),
        XmlSchemaComplexContentRestriction restriction => Named(restriction.BaseTypeName).Concat(TypesOf(restriction.Particle)).Concat(All(restriction.Attributes)),
        XmlSchemaSimpleContentExtension extension => Named(extension.BaseTypeName).Concat(All(extension.Attributes)),
        XmlSchemaSimpleContentRestriction restriction => Named(restriction.BaseTypeName).Concat(TypesOf(restriction.BaseType)).Concat(All(restriction.Attributes)),
        XmlSchemaGroupBase group => All(group.Items),
        XmlSchemaSimpleType simple => TypesOf(simple.Content),
        XmlSchemaSimpleTypeRestriction restriction => Named(restriction.BaseTypeName).Concat(TypesOf(restriction.BaseType)),
        XmlSchemaSimpleTypeList list => Named(list.ItemTypeName).Concat(TypesOf(list.ItemType)),
        XmlSchemaSimpleTypeUnion union => (union.MemberTypes ?? []).Concat(All(union.BaseTypes)),
        _ => [],
    };

    private static IEnumerable<XmlQualifiedName> All(XmlSchemaObjectCollection items) => items.Cast<XmlSchemaObject>().SelectMany(TypesOf);

    private static IEnumerable<XmlQualifiedName> Named(XmlQualifiedName name) => name.IsEmpty ? [] : [name];
}
