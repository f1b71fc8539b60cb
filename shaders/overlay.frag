// overlay.frag - a solid color, or text: the color times the glyph's
// coverage from the font atlas. With GFX_SOLID (the trails' fade) only
// solid colors: no texture read per pixel.

in vec2 v_uv;
in vec4 v_color;

uniform sampler2D u_atlas;

out vec4 o_color;

void main()
{
#ifdef GFX_SOLID
    o_color = v_color;
#else
    float cover = v_uv.x < 0.0 ? 1.0 : texture(u_atlas, v_uv).r;
    o_color = vec4(v_color.rgb, v_color.a * cover);
#endif
}
